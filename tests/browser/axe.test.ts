import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { everyDashboardPage, launchBrowser, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN } from "./server";

const baseUrl = inject("baseUrl");
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core on every page (§10, issue 13): no serious or critical violation, on a laptop and on a phone. */
describe("axe-core on every page in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAt(page, `${baseUrl}/t/demo`, BROWSER_LOGIN);
  });
  afterAll(async () => browser?.close());

  const serious = async (path: string): Promise<string[]> => {
    await page.goto(`${baseUrl}${path}`);
    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = (await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: () => Promise<{ violations: unknown[] }> } }).axe.run();
      return result.violations;
    })) as Violation[];
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${path} ${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")}`,
      );
  };

  it("finds no serious or critical violation on any page, at 1440 and at 390 px", async () => {
    const pages = await everyDashboardPage(page, baseUrl);
    const found: string[] = [];
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages) found.push(...(await serious(path)).map((line) => `${width}px ${line}`));
    }
    expect(found).toEqual([]);
  });

  it("finds none on the signed-out pages: sign-in and an invitation", async () => {
    const signedIn = page;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    try {
      expect([...(await serious("/signin")), ...(await serious("/invite/sgv_no-such-invitation"))]).toEqual([]);
    } finally {
      await context.close();
      page = signedIn;
    }
  });
});
