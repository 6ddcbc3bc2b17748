import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolationsHere } from "../helpers/browser";
import { LARGE_SKILLS, LARGE_VIEWED } from "./server";

const baseUrl = inject("baseUrl");

/**
 * The activation page of the large team's 10,000-skill catalog (issue 41): its long lists show a
 * page of 50 with their count, page by page at an address of their own, and the page stays small.
 * Never loaded: the 7 built-in and 2 global skills, and the synced skills no view reached.
 */
const NEVER_LOADED = 7 + 2 + LARGE_SKILLS - LARGE_VIEWED;
const skillName = (i: number) => `skill-${String(i).padStart(5, "0")}`;

describe("the activation page at 10,000 skills", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const width of [1440, 390]) {
    describe(`at ${width} px`, () => {
      let page: Page;

      beforeAll(async () => {
        page = await leadPage(browser, { viewport: { width, height: 900 } });
        await page.goto(`${baseUrl}/t/large/activation`);
      });

      it("shows the first 50 never-loaded skills with their count, and a page's HTML of at most 300 KB", async () => {
        const never = page.locator('[aria-label="Never loaded"]');
        expect(await never.locator('[data-testid="never-loaded"] li').count()).toBe(50);
        expect(await never.locator('[data-testid="list-count"]').textContent()).toBe(
          `${NEVER_LOADED.toLocaleString("en-US")} never loaded · showing 1–50`,
        );
        expect(await page.textContent('[data-stat="Never loaded"]')).toBe(NEVER_LOADED.toLocaleString("en-US"));
        const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        const html = await (await fetch(`${baseUrl}/t/large/activation`, { headers: { cookie } })).text();
        expect(html).toContain('aria-label="Pages of never-loaded skills"');
        expect(html.length).toBeLessThanOrEqual(300 * 1024);
      });

      it("goes on to the next 50 at an address of their own", async () => {
        await page.locator('nav[aria-label="Pages of never-loaded skills"] a[rel="next"]').click();
        await page.waitForURL(`${baseUrl}/t/large/activation?never=2#never-loaded`);
        const never = page.locator('[aria-label="Never loaded"]');
        expect(await never.locator('[data-testid="list-count"]').textContent()).toBe(
          `${NEVER_LOADED.toLocaleString("en-US")} never loaded · showing 51–100`,
        );
        expect(await never.locator('[data-testid="never-loaded"] li').first().textContent()).toBe(skillName(LARGE_VIEWED + 41));
        expect(await never.locator('[data-testid="never-loaded"] li').count()).toBe(50);
        // The loading bar across the top (nextjs-toploader's nprogress, role="bar") is gone once the page is.
        await page.locator("#nprogress").waitFor({ state: "detached" });
        expect(await seriousViolationsHere(page)).toEqual([]);
      });
    });
  }
});
