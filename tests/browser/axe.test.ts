import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { everyDashboardPage, launchBrowser, seriousViolations, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN } from "./server";

const baseUrl = inject("baseUrl");
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

  const serious = (path: string) => seriousViolations(page, `${baseUrl}${path}`);

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
