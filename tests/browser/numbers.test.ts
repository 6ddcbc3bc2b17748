import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { BROWSER_KEY } from "./server";
import { chartsHistory, type ChartsHistory } from "./charts-history";

const baseUrl = inject("baseUrl");
const cells = (page: Page, row: string) => page.locator(row).locator("td").allTextContents();

/** The versions a chart's labels name: "v2" is 2, "v1, v2" is 1 and 2, "v2–v4" is 2, 3 and 4. */
function namedVersions(labels: string[]): number[] {
  return labels.flatMap((label) =>
    label.split(", ").flatMap((part) => {
      const [from, to = from] = part.split("–").map((v) => Number(v.slice(1)));
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    }),
  );
}

/**
 * Numbers a person can read (issue 41, point 6): two decimals, the amendment's number wherever a
 * lead looks for it, a note for what a chart leaves out, the case plot's tasks whole, a production
 * axis that starts at the data with labels that do not overlap, and chosen per 100 prompts with its
 * interval. On the charts team's history (tests/browser/charts-history.ts) and the demo's month.
 * axe on these pages at both widths is history-charts.test.ts's (the charts team's history and
 * evaluation) and every-page.test.ts's (the demo's skill page and activation).
 */
describe.each([1440, 390])("numbers at %i px", (width) => {
  let browser: Browser;
  let page: Page;
  let made: ChartsHistory;

  beforeAll(async () => {
    made = await chartsHistory(baseUrl);
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height: 900 } });
  });
  afterAll(async () => browser?.close());

  it("labels the deltas chart's bars with the amendments' numbers and says which inconclusive evaluations it leaves out", async () => {
    // Proposed in one order and judged in the other: the two numbers cannot both agree.
    expect([made.mixed, made.regressed].some((e) => e.id !== e.evaluationId)).toBe(true);
    await page.goto(`${baseUrl}/t/charts/history`);
    const figure = page.getByRole("figure", { name: "Evaluation deltas by outcome" });
    await figure.locator(".recharts-bar-rectangle path").first().waitFor();
    expect(await figure.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).toEqual(
      [made.mixed, made.regressed, made.waiting, made.refused].map((e) => `#${e.id}`),
    );
    expect(await figure.locator('[data-testid="chart-note"]').textContent()).toBe(
      `2 inconclusive evaluations are not drawn: amendments #${made.blank.id} and #${made.blankAgain.id} had no judged case, so no delta.`,
    );
  });

  it("names each evaluation by its amendment's number, with deltas to two decimals, in the table and the queue", async () => {
    await page.goto(`${baseUrl}/t/charts/history`);
    const rows = await page
      .locator('[aria-label="Every evaluation"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 5).map((td) => td.textContent)));
    expect(rows.map(([amendment, skill, verdict, , delta]) => [amendment, skill, verdict, delta])).toEqual([
      [`#${made.blankAgain.id}`, "blank", "inconclusive", "—"],
      [`#${made.blank.id}`, "blank", "inconclusive", "—"],
      [`#${made.refused.id}`, "held", "improved", "+0.30"],
      [`#${made.waiting.id}`, "held", "improved", "+0.30"],
      [`#${made.regressed.id}`, "sloped", "regressed", "-0.15"],
      [`#${made.mixed.id}`, "plotted", "improved", "+0.08"],
    ]);
    // The verdict opens the evaluation; the number, the amendment.
    const first = page.locator(`tr[data-evaluation="${made.mixed.evaluationId}"]`);
    expect(await first.locator("a").evaluateAll((links) => links.slice(0, 2).map((a) => a.getAttribute("href")))).toEqual([
      `/t/charts/history/amendments/${made.mixed.id}`,
      `/t/charts/history/evaluations/${made.mixed.evaluationId}`,
    ]);
    const queued = page.locator(`[data-testid="approval-queue"] li[data-amendment="${made.waiting.id}"]`);
    expect(await queued.locator("> div a").allTextContents()).toEqual(["held", `amendment #${made.waiting.id}`, "review its evaluation"]);
    expect(await queued.locator("> div span").first().textContent()).toMatch(/^against v1 · delta \+0\.30 · by /);
  });

  it("prints an evaluation's criteria, case scores and delta with two decimals", async () => {
    await page.goto(`${baseUrl}/t/charts/history/evaluations/${made.mixed.evaluationId}`);
    expect(await page.textContent('[data-stat="Delta"]')).toBe("+0.08");
    const byTask = async (task: string) => (await cells(page, `[data-testid="cases"] tr:has(td:text-is("${task}"))`)).slice(1, 6);
    expect(await byTask("better: the first plotted run")).toEqual(["failure", "0.40 → 0.90", "0.50 → 0.80", "0.60 → 0.70", "0.50 → 0.80"]);
    expect(await byTask("worse: the plotted rollout")).toEqual(["failure", "0.80 → 0.50", "0.80 → 0.50", "0.80 → 0.50", "0.80 → 0.50"]);
  });

  it("numbers the case plot's rows and lists their tasks whole beneath it", async () => {
    await page.goto(`${baseUrl}/t/charts/history/evaluations/${made.mixed.evaluationId}`);
    const figure = page.getByRole("figure", { name: "Case scores, original to amended" });
    await figure.locator("circle[data-end]").first().waitFor();
    expect(await figure.locator(".case-number").allTextContents()).toEqual(["1", "2", "3", "4"]);
    const key = figure.locator('[data-testid="case-key"] li');
    expect(await key.allTextContents()).toEqual([
      "worse: the plotted rollout",
      "same: the plotted review",
      "better: the first plotted run",
      "better: the second plotted run",
    ]);
    // Whole: no item is cut or runs past its box.
    expect(await key.evaluateAll((items) => items.filter((li) => li.scrollWidth > li.clientWidth).length)).toBe(0);
  });

  it("starts the production chart at the data's first day and keeps version labels apart", async () => {
    // changelog-writer's v1 went live 31 days before the demo's telemetry ends, before its first day (27 days back).
    const { versions } = (await (
      await fetch(`${baseUrl}/api/v1/skills/changelog-writer/versions`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } })
    ).json()) as { versions: { version: number; createdAt: string }[] };
    const first = versions.find((v) => v.version === 1)!.createdAt.slice(5, 10);
    await page.goto(`${baseUrl}/t/demo/skills/changelog-writer`);
    const chart = page.locator('[data-testid="production-chart"]');
    await chart.locator(".version-marker").first().waitFor();
    expect(await chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").first().textContent()).toBe(first);

    // flaky-test-triage went live three times, v2 and v3 a few hours apart (the same day or the next, by when the demo was seeded).
    await page.goto(`${baseUrl}/t/demo/skills/flaky-test-triage`);
    await chart.locator(".version-marker").first().waitFor();
    const labels = await chart.locator(".version-marker").allTextContents();
    expect(namedVersions(labels)).toEqual([1, 2, 3]);
    const boxes = await chart
      .locator(".version-marker")
      .evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect()).map((box) => [box.left, box.right]));
    for (const [i, [, right]] of boxes.slice(0, -1).entries())
      expect(right, `${labels[i]} ends before ${labels[i + 1]}`).toBeLessThan(boxes[i + 1]![0]!);
  });

  it("gives chosen per 100 prompts with its interval on the activation page", async () => {
    await page.goto(`${baseUrl}/t/demo/activation`);
    expect(await page.locator('[data-testid="production-recall"] th').nth(4).textContent()).toBe("Per 100 prompts (95% interval)");
    // The demo's 30 days: 691 prompts, 7 of them chose changelog-writer, 42 systematic-debugging.
    expect((await cells(page, 'tr[data-production="changelog-writer"]'))[4]).toBe("1.0 (0.5–2.1)");
    expect((await cells(page, 'tr[data-production="systematic-debugging"]'))[4]).toBe("6.1 (4.5–8.1)");
  });
});
