import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { GOVERNED_KEY, INSTALLER_KEY } from "./server";

const baseUrl = inject("baseUrl");
const SHOTS = "/tmp/truths-shots";

const append = async (key: string, slug: string, body: Record<string, unknown>) => {
  const res = await fetch(`${baseUrl}/api/v1/ledger/${slug}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
};

/** A plan with one prediction per verdict, all recorded now: one week of them. */
async function planWithVerdicts(key: string, slug: string, verdicts: string[]) {
  await append(key, slug, { action: "record-hypothesis", text: "Small truths are told" });
  for (const [i, verdict] of verdicts.entries()) {
    await append(key, slug, { action: "record-prediction", id: "H1", text: `prediction ${i + 1}`, falsifiedBy: "true" });
    await append(key, slug, { action: "record-verdict", id: `P${i + 1}`, verdict, evidence: `run ${i + 1}` });
  }
}

/** Monday of this week, UTC: the week the plans above fall in. */
function thisMonday(): string {
  const now = new Date();
  const back = (now.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back)).toISOString().slice(0, 10);
}

beforeAll(async () => {
  // Teams whose ledgers no other test reads: six verdicts this week on one, two on the other.
  await planWithVerdicts(GOVERNED_KEY, "truths-many", ["confirmed", "confirmed", "refuted", "confirmed", "refuted", "confirmed"]);
  await planWithVerdicts(INSTALLER_KEY, "truths-few", ["confirmed", "refuted"]);
  mkdirSync(SHOTS, { recursive: true });
});

/** The walk of every page for times and wording is every-page.test.ts's, with axe and the phone's width. */
describe.each([
  [1440, 900],
  [390, 844],
])("small truths at %i px in Chromium", (width, height) => {
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height } });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
  });
  afterAll(async () => browser?.close());

  it("names keys as a team names them: the start-up key, sam's claude-code, ci-runner — never the variable", async () => {
    await page.goto(`${baseUrl}/t/demo/settings`);
    const keys = await page.locator("tr[data-key]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-key")));
    expect(keys).toEqual(expect.arrayContaining(["start-up key", "sam's claude-code", "ci-runner"]));
    expect(keys).not.toContain("SKILLGATE_INIT_API_KEY");
    expect(await page.locator('tr[data-key="start-up key"] td').nth(2).textContent()).toBe("read, write, admin");
    // The demo's agents' keys were made when the demo team started, not when the server did.
    expect(await page.locator(`tr[data-key="sam's claude-code"] td`).nth(3).textContent()).toBe("34 d ago");
    expect(await page.locator('tr[data-key="ci-runner"] td').nth(3).textContent()).toBe("34 d ago");
    await page.screenshot({ path: `${SHOTS}/settings-${width}.png`, fullPage: true });

    await page.goto(`${baseUrl}/t/demo/history?skill=release-checklist&kind=created`);
    expect(await page.locator('[data-testid="events"] li > span:last-child').last().textContent()).toBe(
      "by key sam's claude-code · session 7f3a-release",
    );
    await page.goto(`${baseUrl}/t/demo/history?skill=flaky-test-triage&kind=amended`);
    expect(await page.locator('[data-testid="events"] li > span:last-child').allTextContents()).toEqual([
      "by key ci-runner · session nightly-ci",
      "by key ci-runner · session e2e-checkout",
    ]);
  });

  it("names an evaluation after its amendment: amendment first, the evaluation in brackets", async () => {
    await page.goto(`${baseUrl}/t/demo/history?skill=flaky-test-triage&kind=evaluated`);
    const event = page.locator('[data-testid="events"] li[data-event="evaluated"]').last();
    const links = await event.locator("a").allTextContents();
    expect(links).toEqual(["flaky-test-triage", expect.stringMatching(/^amendment #\d+$/), expect.stringMatching(/^\(evaluation #\d+\)$/)]);
    const amendmentId = links[1]!.slice("amendment #".length);
    const evaluationId = links[2]!.slice("(evaluation #".length, -1);
    await event.locator("a", { hasText: "(evaluation #" }).click();
    await page.waitForURL(`${baseUrl}/t/demo/history/evaluations/${evaluationId}`);
    expect(await page.textContent("h1")).toBe(`Amendment #${amendmentId} (evaluation #${evaluationId}) to flaky-test-triage`);
    await page.screenshot({ path: `${SHOTS}/evaluation-${width}.png` });
  });

  it("says times as how long ago, with the exact UTC minute on hover", async () => {
    await page.goto(`${baseUrl}/t/demo/history?skill=release-checklist&kind=created`);
    const created = page.locator('[data-testid="events"] li[data-event="created"] time').last();
    expect(await created.textContent()).toBe("27 d ago");
    const iso = (await created.getAttribute("datetime"))!;
    expect(await created.getAttribute("title")).toBe(`${iso.slice(0, 16).replace("T", " ")} UTC`);
    const age = Date.now() - Date.parse(iso);
    expect(age / 86_400_000).toBeGreaterThanOrEqual(27);
    expect(age / 86_400_000).toBeLessThan(27.1);

    // The demo's first triage amendment, written 4.6 days ago.
    await page.goto(`${baseUrl}/t/demo/history?skill=flaky-test-triage&kind=amended`);
    await page.locator('[data-testid="events"] li a:has-text("amendment #")').last().click();
    await page.waitForURL(/\/t\/demo\/history\/amendments\/\d+$/);
    expect(await page.textContent('[data-testid="amendment-caption"]')).toBe(
      "Amendment #" +
        page.url().split("/").pop() +
        " against v1, written by an agent: key ci-runner · session e2e-checkout, 4 d ago. Why: “the e2e checkout run missed a network timeout”",
    );
    await page.locator('[data-testid="amendment-caption"] time').hover();
    await page.screenshot({ path: `${SHOTS}/amendment-${width}.png` });
  });

  it("gives each week's pass rate its n, and draws a week on fewer than 5 verdicts hollow", async () => {
    const monday = thisMonday();
    await page.goto(`${baseUrl}/t/governed/ledger`);
    const chart = page.locator('[data-testid="pass-rate-week"]');
    const dot = chart.locator(`circle[data-week="${monday}"]`);
    await dot.waitFor();
    expect(await chart.locator("circle[data-week]").count()).toBe(1);
    expect(await dot.getAttribute("fill")).toBe("#4338ca");
    expect(await dot.getAttribute("data-few")).toBe("false");
    expect(await page.locator('[data-testid="pass-rate-week-table"] tbody tr').count()).toBe(1);
    expect(await page.locator(`[data-testid="pass-rate-week-table"] tr[data-week="${monday}"] td`).allTextContents()).toEqual([
      monday,
      "6",
      "67%",
    ]);
    expect(await page.textContent('[data-testid="few-verdicts-legend"]')).toBe(
      "A hollow point rests on fewer than 5 verdicts: one verdict more or less swings it widely.",
    );
    await dot.hover();
    const tooltip = chart.locator(".recharts-tooltip-wrapper");
    await tooltip.locator(".recharts-tooltip-item").first().waitFor();
    expect(await tooltip.locator(".recharts-tooltip-label").textContent()).toBe(`week of ${monday}`);
    expect(await tooltip.locator(".recharts-tooltip-item").allTextContents()).toEqual([
      "confirmed : 4",
      "refuted : 2",
      "inconclusive : 0",
      "pass rate : 67% (n=6)",
    ]);
    await page.screenshot({ path: `${SHOTS}/ledger-many-${width}.png`, fullPage: true });

    await page.goto(`${baseUrl}/t/installer/ledger`);
    const hollow = page.locator(`[data-testid="pass-rate-week"] circle[data-week="${monday}"]`);
    await hollow.waitFor();
    expect(await hollow.getAttribute("fill")).toBe("#ffffff");
    expect(await hollow.getAttribute("data-few")).toBe("true");
    expect(await page.locator(`[data-testid="pass-rate-week-table"] tr[data-week="${monday}"] td`).allTextContents()).toEqual([
      monday,
      "2",
      "50%",
    ]);
    await hollow.hover();
    const rate = page.locator('[data-testid="pass-rate-week"] .recharts-tooltip-item', { hasText: "pass rate" });
    await rate.waitFor();
    expect(await rate.textContent()).toBe("pass rate : 50% (n=2)");
    await page.screenshot({ path: `${SHOTS}/ledger-few-${width}.png`, fullPage: true });
  });

  it("logs no errors in the browser console, hydration included", () => {
    expect(consoleErrors.filter((e) => !e.includes("404"))).toEqual([]);
  });
});
