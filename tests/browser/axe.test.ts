import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { everyDashboardPage, launchBrowser, seriousViolations, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN } from "./server";

const baseUrl = inject("baseUrl");
/** axe-core on every page (docs/dashboard.md#phones-and-accessibility, issue 13): no serious or critical violation, on a laptop and on a phone. */
describe("axe-core on every page in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAt(page, `${baseUrl}/t/demo`, BROWSER_LOGIN);
  });
  afterAll(async () => browser?.close());

  const serious = (path: string) => seriousViolations(page, `${baseUrl}${path}`);

  /** The findings on each page at a laptop's width, then at a phone's. */
  async function seriousAtBothWidths(pages: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages) found.push(...(await serious(path)).map((line) => `${width}px ${line}`));
    }
    return found;
  }

  // A page load and an axe run per page and width: 4 to 5 minutes on a busy 2-core machine, not the default 90 s.
  const MANY_PAGES_MS = 600_000;

  it("finds no serious or critical violation on any page, at 1440 and at 390 px", { timeout: MANY_PAGES_MS }, async () => {
    expect(await seriousAtBothWidths(await everyDashboardPage(page, baseUrl))).toEqual([]);
  });

  it(
    "finds none on any page of the team with 10,009 skills (the large team), at 1440 and at 390 px",
    { timeout: MANY_PAGES_MS },
    async () => {
      const pages = ["", "/listing", "/activation", "/ledger", "/history", "/settings", "/skills/skill-00000"];
      expect(await seriousAtBothWidths(pages.map((path) => `/t/large${path}`))).toEqual([]);
    },
  );

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
