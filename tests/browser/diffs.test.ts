import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json", ...init.headers },
  });

const V1 = "# Release\n\n1. Tag the release.\n2. Deploy.\n3. Watch the dashboards.\n";
const V2 = "# Release\n\n1. Tag the release.\n2. Run the smoke tests.\n3. Deploy.\n4. Watch the dashboards.\n";
const SKILL = "/t/lab/skills/renumbered-steps";
/** The diff of v1 and v2 with another parameter (the raw body) that the view's links must keep. */
const DIFF = `${SKILL}?from=1&to=2&body=raw`;

/** The texts of a view's removals and additions, in the page's order. */
async function marks(page: Page, view: string) {
  const box = page.locator(`[data-view="${view}"]`);
  return { del: await box.locator("del").allTextContents(), ins: await box.locator("ins").allTextContents() };
}

/** A version's diff marks the words that changed, not whole lines (issue 27), at both widths. */
describe.each([
  { width: 1440, height: 900, shown: "split", other: "unified", otherLabel: "Unified" },
  { width: 390, height: 844, shown: "unified", other: "split", otherLabel: "Split" },
])("diffs at $width px in Chromium", ({ width, height, shown, other, otherLabel }) => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // One skill for both widths: the second run finds it there (409) with its two versions.
    const created = await api("/api/v1/skills", {
      method: "POST",
      body: JSON.stringify({ name: "renumbered-steps", description: "Releases in order. Use when releasing.", body: V1, status: "active" }),
    });
    if (created.status === 201) {
      expect(
        (await api("/api/v1/skills/renumbered-steps", { method: "PUT", body: JSON.stringify({ body: V2, expectedVersion: 1 }) })).status,
      ).toBe(200);
    } else expect(created.status).toBe(409);
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height } });
  });
  afterAll(async () => browser?.close());

  it(`opens ${shown} by default and marks only the renumbered numbers; the inserted line is one whole addition`, async () => {
    await page.goto(`${baseUrl}${DIFF}#diff`);
    const view = page.locator(`section[aria-label="Versions"] [data-view="${shown}"]`);
    expect(await view.isVisible()).toBe(true);
    expect(await page.locator(`section[aria-label="Versions"] [data-view="${other}"]`).isVisible()).toBe(false);
    expect(await view.locator('a[aria-current="page"]').textContent()).toBe(shown === "split" ? "Split" : "Unified");
    expect(await marks(page, shown)).toEqual({ del: ["2", "3"], ins: ["2. Run the smoke tests.", "3", "4"] });
    if (shown === "split") {
      expect(await view.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")))).toEqual([
        // The frontmatter's four lines, folded.
        null,
        "same",
        "same",
        "same",
        "added",
        "changed",
        "changed",
      ]);
      expect(await view.locator('tr[data-kind="changed"]').first().locator("td").allTextContents()).toEqual([
        "8",
        "2. Deploy.",
        "9",
        "3. Deploy.",
      ]);
    } else {
      expect(await view.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.textContent))).toEqual([
        "… 4 unchanged lines …",
        "55 # Release",
        "66 ",
        "77 1. Tag the release.",
        "8-2. Deploy.",
        "9-3. Watch the dashboards.",
        "8+2. Run the smoke tests.",
        "9+3. Deploy.",
        "10+4. Watch the dashboards.",
      ]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });

  it(`switches to ${other} and keeps the rest of the query`, async () => {
    await page.goto(`${baseUrl}${DIFF}#diff`);
    const link = page.locator(`section[aria-label="Versions"] [data-view="${shown}"] a:has-text("${otherLabel}")`);
    expect(await link.getAttribute("href")).toBe(`${DIFF}&view=${other}#diff`);
    await link.click();
    await page.waitForURL(`${baseUrl}${DIFF}&view=${other}#diff`);
    const view = page.locator(`section[aria-label="Versions"] [data-view="${other}"]`);
    await view.waitFor();
    // Asked for, one view is on the page, whatever the width.
    expect(await page.locator(`section[aria-label="Versions"] [data-view="${shown}"]`).count()).toBe(0);
    expect(await view.locator('a[aria-current="page"]').textContent()).toBe(otherLabel);
    expect(await marks(page, other)).toEqual({ del: ["2", "3"], ins: ["2. Run the smoke tests.", "3", "4"] });
    // The raw body the query asked for is still shown.
    expect(await page.locator('[data-testid="raw-skill"]').isVisible()).toBe(true);
    expect(await view.locator(`a:has-text("${shown === "split" ? "Split" : "Unified"}")`).getAttribute("href")).toBe(
      `${DIFF}&view=${shown}#diff`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });

  it("keeps a phone's page its width: split scrolls sideways in its own box and says so", async () => {
    await page.goto(`${baseUrl}${DIFF}&view=split#diff`);
    const box = page.locator('section[aria-label="Versions"] [role="region"][aria-label="v1 and v2 side by side"]');
    const cue = page.locator('section[aria-label="Versions"] [data-view="split"] p');
    const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (width === 390) {
      expect(scrollWidth).toBeGreaterThan(clientWidth);
      expect(await cue.isVisible()).toBe(true);
      expect(await cue.textContent()).toBe("Scroll the table sideways to see v2 on the right →");
    } else {
      expect(scrollWidth).toBe(clientWidth);
      expect(await cue.isVisible()).toBe(false);
    }
  });

  it("switches the editor's review diff without losing the edit", async () => {
    await page.goto(`${baseUrl}${SKILL}?view=${shown}`);
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("5. Close the ticket.\n");
    await page.click("text=Review changes");
    const preview = page.locator('[data-testid="diff-preview"]');
    await preview.locator(`[data-view="${shown}"] a:has-text("${otherLabel}")`).click();
    await page.waitForURL(`${baseUrl}${SKILL}?view=${other}`);
    await preview.locator(`[data-view="${other}"]`).waitFor();
    expect(await preview.locator(`[data-view="${other}"] ins`).allTextContents()).toEqual(["5. Close the ticket."]);
    expect(await preview.locator(`[data-view="${other}"] del`).count()).toBe(0);
  });

  it("has no serious accessibility findings in either view", async () => {
    for (const query of ["", "&view=split", "&view=unified"])
      expect(await seriousViolations(page, `${baseUrl}${DIFF}${query}`)).toEqual([]);
  });

  it("offers both views of an amendment's change, marking its changed words", async () => {
    await page.goto(`${baseUrl}/t/demo/history`);
    const href = await page.locator('a[href^="/t/demo/history/amendments/"]').first().getAttribute("href");
    await page.goto(`${baseUrl}${href}?view=unified`);
    const view = page.locator('section[aria-labelledby="amendment-change"] [data-view="unified"]');
    expect(await view.locator('a[aria-current="page"]').textContent()).toBe("Unified");
    expect(await view.locator('a:has-text("Split")').getAttribute("href")).toBe(`${href}?view=split#amendment-change`);
    // The demo's amendment puts a step first: the five steps it pushes down pair with their old selves, the numbers marked.
    expect(await marks(page, "unified")).toEqual({
      del: ["1", "2", "3", "4", "5"],
      ins: [
        "1. Take the failing run's shuffle seed from the CI log and rerun with it: `npx vitest run --sequence.seed=<seed>`. A test that fails with one seed has an order problem you can now reproduce.",
        "2",
        "3",
        "4",
        "5",
        "6",
      ],
    });
    expect(await seriousViolations(page, `${baseUrl}${href}?view=unified`)).toEqual([]);
  });
});
