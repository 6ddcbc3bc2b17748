import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { stubControl } from "../helpers/openai-stub";
import { BROWSER_KEY, LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const judge = stubControl(inject("judgeUrl"));
const api = async (path: string, body?: unknown, key = LAB_KEY) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

/** Enough cases that a lexical run is still working in batches when its page first shows. */
const CASES = 3000;

/** Issue 27 (defect 6): actions answer at once with their own progress, and the overview's sparklines say their figures. */
describe.each([
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
])("answers and progress at $width px", ({ width, height }) => {
  let browser: Browser;
  let page: Page;
  const skill = `speed-check-${width}`;

  beforeAll(async () => {
    await api("/api/v1/evals/prompt-sets", {
      name: "speed-many",
      cases: Array.from({ length: CASES }, (_, i) =>
        i % 3 === 2
          ? { id: `G${i}`, prompt: `What is the weather like on day ${i}?`, expectNone: true }
          : { id: `D${i}`, prompt: `Debug the root cause of failure ${i} systematically`, expected: ["systematic-debugging"] },
      ),
    });
    await api("/api/v1/skills", {
      name: skill,
      description: "Checks a release in stages. Use when shipping to users.",
      body: "# Check\n\n1. Ship it.\n",
      status: "active",
    });
    await api("/api/v1/observations", {
      observations: [
        { skill, task: "same: check the checkout release", category: "release", outcome: "failure" },
        { skill, task: "same: check the search release", category: "release", outcome: "success" },
      ],
    });
    await api(`/api/v1/skills/${skill}/amendments`, { body: "# Check\n\n1. Ship to 5%.\n2. Ship to all.\n", rationale: "stages" });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height } });
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/lab/activation`);
  });
  afterAll(async () => browser?.close());

  it("starts a lexical run on its own page, running, and shows the result when its batches are done", async () => {
    await page.selectOption('select[name="promptSet"]', "speed-many");
    await page.selectOption('select[name="activator"]', "lexical");
    await page.click('form[aria-label="Start a run"] button');
    await page.waitForURL(/\/t\/lab\/activation\/runs\/\d+$/);
    expect(await page.textContent('[data-testid="run-status"]')).toMatch(new RegExp(`^running · \\d+ of ${CASES} case-runs`));
    expect(await page.locator('[data-testid="progress"]').count()).toBe(1);
    await page.locator('[data-testid="run-status"]:has-text("finished")').waitFor({ timeout: 60_000 });
    expect(await page.textContent('[data-testid="run-status"]')).toBe(`finished · ${CASES} of ${CASES} case-runs · 1 trial(s) per case`);
    const run = await api(`/api/v1/evals/runs/${page.url().split("/").pop()}`);
    expect(run.results).toHaveLength(CASES);
    expect(await page.textContent('[data-stat="Activation"]')).toBe(`${Math.round(run.metrics.activationRate * 100)}%`);
    expect(await page.locator('[data-testid="progress"]').count()).toBe(0);
  });

  it("starts an evaluation and lands on the evaluation page, which shows its progress", async () => {
    await page.goto(`${baseUrl}/t/lab/skills/${skill}`);
    await judge.hold();
    try {
      await page.locator('tr[data-amendment] button:has-text("Evaluate")').click();
      await page.waitForURL(/\/t\/lab\/history\/evaluations\/\d+$/);
      expect(await page.textContent('[data-testid="progress"]')).toMatch(/^Judging case [0-1] of 2…/);
    } finally {
      await judge.release();
    }
    await page.locator('[data-stat="Verdict"]').waitFor({ timeout: 30_000 });
    const evaluation = await api(`/api/v1/evaluations/${page.url().split("/").pop()}`);
    expect(evaluation.cases).toHaveLength(2);
  });

  it("says each skill's 30 days of views in words beside its sparkline", async () => {
    await page.goto(`${baseUrl}/t/demo`);
    const usage = (await api("/api/v1/usage", undefined, BROWSER_KEY)) as { skills: { name: string; views7d: number; views30d: number }[] };
    const debugging = usage.skills.find((entry) => entry.name === "systematic-debugging");
    expect(debugging?.views30d).toBeGreaterThan(1);
    const views = (count: number) => `${count} ${count === 1 ? "view" : "views"}`;
    const sparkline = page.locator('tr[data-skill="systematic-debugging"][data-status="active"] [data-testid="sparkline"]');
    expect(await sparkline.getAttribute("aria-label")).toBe(
      `${views(debugging!.views7d)} in 7 days, ${views(debugging!.views30d)} in 30 days`,
    );
    expect(await sparkline.getAttribute("role")).toBe("img");
    // One bar per day with views: at least one, at most 30.
    const bars = await sparkline.locator("rect").count();
    expect(bars).toBeGreaterThan(0);
    expect(bars).toBeLessThanOrEqual(30);
    await page.screenshot({ path: `/tmp/speed-overview-${width}.png`, fullPage: false });
  });
});
