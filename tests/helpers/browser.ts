import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { findChromium } from "../../scripts/chromium.mjs";

/** What a browser context holds after signing in (its cookies), to start another context signed in. */
export type StoredSession = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** The app's scripts: held, a page stays as the server sent it, before hydration. */
const APP_SCRIPTS = "**/_next/static/chunks/**";

/**
 * Holds every request for the app's scripts from `target` until `release`, to see a page before
 * hydration. `held` says how many are waiting (more than 0, or the page was not held at all).
 * `release` lets them go and stops holding; it may be called again, as in a `finally`.
 */
export async function holdScripts(target: Page | BrowserContext): Promise<{ held: () => number; release: () => Promise<void> }> {
  const waiting: (() => Promise<void>)[] = [];
  let holding = true;
  await target.route(APP_SCRIPTS, (route) => (holding ? void waiting.push(() => route.continue()) : route.continue()));
  return {
    held: () => waiting.length,
    release: async () => {
      holding = false;
      await Promise.all(waiting.splice(0).map((go) => go()));
      await target.unroute(APP_SCRIPTS);
    },
  };
}

/** Debian's Chromium, headless, with the flags that keep it off the network; Playwright gives it a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium is missing: install it with `apt-get install chromium` (or set CHROMIUM_PATH)");
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Opens `url` signed out, signs in on the page it is sent to, and waits to be back at `url`. */
export async function signInAt(page: Page, url: string, login: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.waitForURL(/\/signin\?callbackUrl=/);
  await page.fill('input[name="email"]', login.email);
  await page.fill('input[name="password"]', login.password);
  await page.click('button[type="submit"]');
  await page.waitForURL(url);
}

/**
 * A page in a new context of `browser`, signed in as BROWSER_LOGIN with the session the browser
 * tests' server made once (tests/browser/server.ts): no sign-in form per file. Close it with
 * `page.context().close()`. Tests about signing in, signing out or ending sessions use signInAt.
 */
export async function leadPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...options, storageState: inject("leadSession") });
  return context.newPage();
}

/** The first link on a page whose path matches, to reach pages with ids (a plan, an evaluation, a run). */
async function firstLink(page: Page, baseUrl: string, from: string, pattern: RegExp): Promise<string> {
  await page.goto(`${baseUrl}${from}`);
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  const href = hrefs.find((candidate) => pattern.test(candidate));
  if (!href) throw new Error(`no link matching ${pattern} on ${from}`);
  return href;
}

/** Every page of the demo team's dashboard (docs/dashboard.md#pages), those with ids found by following its links; the page must be signed in. */
export async function everyDashboardPage(page: Page, baseUrl: string): Promise<string[]> {
  return [
    "/t/demo",
    "/t/demo/listing",
    "/t/demo/activation",
    "/t/demo/ledger",
    "/t/demo/history",
    "/t/demo/settings",
    "/t/demo/skills/systematic-debugging",
    "/t/demo/skills/flaky-test-triage",
    await firstLink(page, baseUrl, "/t/demo/ledger", /^\/t\/demo\/ledger\/[a-z0-9-]+$/),
    await firstLink(page, baseUrl, "/t/demo/history", /^\/t\/demo\/history\/evaluations\/\d+$/),
    await firstLink(page, baseUrl, "/t/demo/history", /^\/t\/demo\/history\/amendments\/\d+$/),
    await firstLink(page, baseUrl, "/t/demo/activation", /^\/t\/demo\/activation\/runs\/\d+/),
  ];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page at `url`, one line each (none is the aim on every page). */
export async function seriousViolations(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  return seriousViolationsHere(page);
}

/** The same for the page as it is now: a dialog open, a form filled. */
export async function seriousViolationsHere(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(async () => {
    type Axe = { run: (options: { resultTypes: string[] }) => Promise<{ violations: unknown[] }> };
    const result = await (window as unknown as { axe: Axe }).axe.run({ resultTypes: ["violations"] });
    return result.violations;
  })) as Violation[];
  const path = new URL(page.url()).pathname;
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${path} ${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/**
 * A lead's decision in the dialog that a Pin, Unpin, Label or Roll back button opened: the reason,
 * the dialog's one choice (keep the pin) ticked when asked, then the button that decides. Answers
 * the question the dialog asked.
 */
export async function decide(page: Page, choice: { reason?: string; option?: boolean } = {}): Promise<string> {
  const dialog = page.locator("dialog[open]");
  await dialog.waitFor();
  const question = (await dialog.locator("p").first().textContent()) ?? "";
  if (choice.reason !== undefined) await dialog.locator('textarea[name="reason"]').fill(choice.reason);
  if (choice.option) await dialog.locator('input[type="checkbox"]').check();
  await dialog.locator('button[type="submit"]').click();
  return question;
}
