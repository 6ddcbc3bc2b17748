import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { everyDashboardPage, launchBrowser, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN } from "./server";

const baseUrl = inject("baseUrl");

/** Every page on a phone (390 px, docs/dashboard.md#phones-and-accessibility): nothing wider than the screen, the sections a menu away. */
describe("every page at 390 px in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signInAt(page, `${baseUrl}/t/demo`, BROWSER_LOGIN);
  });
  afterAll(async () => browser?.close());

  it("fits every page in the width of the screen", async () => {
    const pages = await everyDashboardPage(page, baseUrl);
    const wide: string[] = [];
    for (const path of pages) {
      await page.goto(`${baseUrl}${path}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) {
        const culprits = await page.evaluate(() =>
          [...document.querySelectorAll("body *")]
            .filter((el) => Math.abs(el.getBoundingClientRect().right - document.documentElement.scrollWidth) < 3)
            .slice(0, 4)
            .map(
              (el) =>
                `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} [${el.textContent?.slice(0, 30)}] ${Math.round(el.getBoundingClientRect().right)}`,
            ),
        );
        wide.push(`${path}: ${width} px ${culprits.join(" | ")}`);
      }
    }
    expect(wide).toEqual([]);
  });

  it("fits the signed-out pages too: sign-in and an invitation", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const guest = await context.newPage();
    for (const path of ["/signin", "/invite/sgv_no-such-invitation"]) {
      await guest.goto(`${baseUrl}${path}`);
      expect(await guest.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await context.close();
  });

  it("opens the sections from a menu on a phone", async () => {
    await page.goto(`${baseUrl}/t/demo/ledger`);
    expect(await page.locator('nav[aria-label="Sections"]').isVisible()).toBe(false);
    const menu = page.locator('[data-testid="nav-menu"]');
    // The demo's seed amendment waits for the lead: the menu's button says so on every page.
    expect(await menu.textContent()).toBe("Ledger ▾1");
    expect(await menu.locator('[aria-label="1 awaiting approval"]').count()).toBe(1);
    await menu.click();
    await page.locator('nav[aria-label="Sections menu"] >> text=Settings').click();
    await page.waitForURL(`${baseUrl}/t/demo/settings`);
    expect(await page.textContent("h1")).toBe("Settings");
  });
});
