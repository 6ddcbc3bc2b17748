// `npx tsx scripts/screenshots.ts [folder]`: every page of the demo team's dashboard, whole, at
// 1440 and 390 px, into `folder` (tests/.artifacts/screenshots unless given), for a person to look
// at before and after a change to the pages. Not a test: a picture asserts nothing; the browser
// tests check what the pages say and that they fit the screen.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { startServer } from "../tests/helpers/server";
import { everyDashboardPage, launchBrowser, signInAt } from "../tests/helpers/browser";

const LOGIN = { email: "lead@screenshots.test", password: "screenshots-password" };
const WIDTHS = [1440, 390];
/** Time for the charts to draw once the page has loaded: Recharts measures its box first. */
const SETTLE_MS = 500;

/** "/t/demo/skills/flaky-test-triage" → "t-demo-skills-flaky-test-triage". */
function fileName(page: string, width: number): string {
  return `${page.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-")}-${width}.png`;
}

async function main(folder: string): Promise<void> {
  buildIfNeeded();
  mkdirSync(folder, { recursive: true });
  const server = await startServer({
    SKILLGATE_DEMO: "1",
    SKILLS_GLOBAL_DIR: "demo/global-skills",
    SKILLGATE_INIT_TEAM: "demo",
    SKILLGATE_INIT_USER_EMAIL: LOGIN.email,
    SKILLGATE_INIT_USER_PASSWORD: LOGIN.password,
  });
  const browser = await launchBrowser();
  try {
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await signInAt(page, `${server.url}/t/demo`, LOGIN);
      for (const shown of await everyDashboardPage(page, server.url)) {
        await page.goto(`${server.url}${shown}`);
        await page.waitForTimeout(SETTLE_MS);
        await page.screenshot({ path: path.join(folder, fileName(shown, width)), fullPage: true });
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`screenshots in ${folder}`);
}

await main(process.argv[2] ?? "tests/.artifacts/screenshots");
