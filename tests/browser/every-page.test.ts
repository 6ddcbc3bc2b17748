import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, ConsoleMessage, Page } from "playwright-core";
import { everyDashboardPage, launchBrowser, leadPage, seriousViolations, seriousViolationsHere } from "../helpers/browser";

const baseUrl = inject("baseUrl");

const RELATIVE = /^(just now|\d+ (min|h|d|mo|y) ago|in \d+ (min|h|d|mo|y))$/;
const ABSOLUTE_MINUTE = /\d{4}-\d\d-\d\d \d\d:\d\d/;

/** A page load and an axe run per page: a budget for a busy 2-core machine, not a speed bar. */
const WALK_MS = 300_000;

/** Why the page at hand is wider than a phone's 390 px: the elements at its right edge. */
const wideCulprits = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => Math.abs(el.getBoundingClientRect().right - document.documentElement.scrollWidth) < 3)
      .slice(0, 4)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} [${el.textContent?.slice(0, 30)}] ${Math.round(el.getBoundingClientRect().right)}`,
      ),
  );

/**
 * Small truths (issue 13's follow-up): the page's own words hold no absolute minute, no old
 * wording, and every <time> says how long ago with its exact UTC minute on hover. Returns what is
 * wrong and how many <time>s it read.
 */
async function untruths(page: Page, path: string): Promise<{ found: string[]; times: number }> {
  const found: string[] = [];
  // What people wrote (commands, skill text) may hold times of its own: only the page's own words count.
  const text = await page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const unread of body.querySelectorAll("code, pre, textarea, script, style")) unread.remove();
    return body.textContent ?? "";
  });
  if (ABSOLUTE_MINUTE.test(text)) found.push(`${path}: ${ABSOLUTE_MINUTE.exec(text)![0]}`);
  if (text.includes("of amendment") || text.includes("SKILLGATE_INIT_API_KEY")) found.push(`${path}: old wording`);
  const stamps = await page
    .locator("time")
    .evaluateAll((els) => els.map((el) => [el.textContent ?? "", el.getAttribute("datetime") ?? "", el.getAttribute("title") ?? ""]));
  for (const [said, iso, title] of stamps) {
    if (!RELATIVE.test(said!)) found.push(`${path}: <time> says ${said}`);
    if (title !== `${new Date(iso!).toISOString().slice(0, 16).replace("T", " ")} UTC`) found.push(`${path}: <time> title ${title}`);
  }
  return { found, times: stamps.length };
}

/**
 * One walk of every page of the demo team's dashboard (docs/dashboard.md#pages) at a laptop's and a
 * phone's width, each page loaded once per width for what three walks checked before: axe-core's
 * serious and critical findings (docs/dashboard.md#phones-and-accessibility, issue 13), nothing
 * wider than a phone's screen, and the small truths of times and wording. Then the large team's
 * pages and the signed-out pages, and the sections' menu on a phone.
 */
describe("every page in Chromium", () => {
  let browser: Browser;
  let pages: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const finder = await leadPage(browser);
    pages = await everyDashboardPage(finder, baseUrl);
    await finder.context().close();
  });
  afterAll(async () => browser?.close());

  describe.each([
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ])("at $width px", ({ width, height }) => {
    const phone = width === 390;
    let page: Page;

    beforeAll(async () => {
      page = await leadPage(browser, { viewport: { width, height } });
    });
    afterAll(async () => page?.context().close());

    it(
      `finds on no page a serious or critical axe violation${phone ? ", anything wider than the screen" : ""}, an absolute minute, an old wording or a console error; every <time> is relative with its UTC minute`,
      { timeout: WALK_MS },
      async () => {
        const consoleErrors: string[] = [];
        const listen = (message: ConsoleMessage) => {
          if (message.type() === "error") consoleErrors.push(message.text());
        };
        page.on("console", listen);
        const axe: string[] = [];
        const wide: string[] = [];
        const truths: string[] = [];
        let times = 0;
        for (const path of pages) {
          await page.goto(`${baseUrl}${path}`);
          const read = await untruths(page, path);
          truths.push(...read.found);
          times += read.times;
          if (phone) {
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            if (scrollWidth > 390) wide.push(`${path}: ${scrollWidth} px ${(await wideCulprits(page)).join(" | ")}`);
          }
          // Last: it adds axe's script to the page.
          axe.push(...(await seriousViolationsHere(page)).map((line) => `${width}px ${line}`));
        }
        page.off("console", listen);
        expect(pages.length).toBe(12);
        // Hydration errors included; a 404 is a resource the page does without.
        const errors = consoleErrors.filter((e) => !e.includes("404"));
        expect({ axe, wide, truths, errors }).toEqual({ axe: [], wide: [], truths: [], errors: [] });
        expect(times).toBeGreaterThan(20);
      },
    );

    it(
      "finds no serious or critical axe violation on any page of the team with 10,009 skills (the large team)",
      { timeout: WALK_MS },
      async () => {
        const found: string[] = [];
        for (const path of ["", "/listing", "/activation", "/ledger", "/history", "/settings", "/skills/skill-00000"])
          found.push(...(await seriousViolations(page, `${baseUrl}/t/large${path}`)).map((line) => `${width}px ${line}`));
        expect(found).toEqual([]);
      },
    );

    it.runIf(phone)("opens the sections from a menu on a phone", async () => {
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

  it("finds on the signed-out pages (sign-in and an invitation) no serious axe violation and nothing wider than a phone", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const guest = await context.newPage();
      const found: string[] = [];
      for (const path of ["/signin", "/invite/sgv_no-such-invitation"]) {
        found.push(...(await seriousViolations(guest, `${baseUrl}${path}`)));
        expect(await guest.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      }
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
