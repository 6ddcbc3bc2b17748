import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { chartsHistory, type ChartsHistory, type Judged } from "./charts-history";

const baseUrl = inject("baseUrl");
/** The history both viewports read. */
let made: ChartsHistory | undefined;

// Tailwind's colours as history-colors.ts names them.
const GREEN = "#059669";
const SLATE = "#64748b";
const CYAN = "#0891b2";
const RED = "#dc2626";
const VIOLET = "#7c3aed";

/** Issue 27: every promotion decision by week, each evaluation's delta by outcome, and an evaluation's cases original → amended. */
describe.each([
  { viewport: { width: 1440, height: 900 }, label: "1440" },
  { viewport: { width: 390, height: 844 }, label: "390" },
])("the history's charts at $label px", ({ viewport }) => {
  let browser: Browser;
  let page: Page;
  let mixed: Judged;
  let amendments: number[];

  beforeAll(async () => {
    made ??= await chartsHistory(baseUrl);
    mixed = made.mixed;
    amendments = [made.mixed, made.regressed, made.waiting, made.refused].map((e) => e.id);
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport });
  });
  afterAll(async () => browser?.close());

  /** Nothing on the page is wider than the screen: the page does not scroll sideways, and no figure runs past its right edge. */
  const fitsTheScreen = async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    for (const figure of await page.locator("figure").all()) {
      const box = (await figure.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
  };

  it("stacks every kind of promotion decision by week, with a legend and the figures as a table", async () => {
    await page.goto(`${baseUrl}/t/charts/history`);
    const figure = page.getByRole("figure", { name: "Promotion decisions by week" });
    expect(await figure.locator('[data-testid="legend"] li').allTextContents()).toEqual([
      "promoted automatically",
      "approved by a lead",
      "overridden by a lead",
      "draft promoted",
      "rejected by a lead",
      "not promoted (judged not improved)",
      "rolled back",
    ]);
    // One week, four kinds of decision in it: one segment each.
    await figure.locator(".recharts-bar-rectangle path").first().waitFor();
    const fills = await figure.locator(".recharts-bar-rectangle path").evaluateAll((paths) => paths.map((p) => p.getAttribute("fill")));
    expect(fills).toEqual([GREEN, RED, SLATE, VIOLET]);
    await figure.locator("summary").click();
    const cells = await figure
      .locator("tbody tr td[data-decision]")
      .evaluateAll((tds) => tds.map((td) => [td.getAttribute("data-decision"), td.textContent]));
    expect(cells).toEqual([
      ["auto-promoted", "1"],
      ["approved", "0"],
      ["overridden", "0"],
      ["draft-promoted", "0"],
      ["rejected", "1"],
      ["not-promoted", "3"],
      ["rolled-back", "1"],
    ]);
    await fitsTheScreen();
  });

  it("draws each evaluation's delta from 0, coloured by its outcome, with the threshold of improved", async () => {
    await page.goto(`${baseUrl}/t/charts/history`);
    const figure = page.getByRole("figure", { name: "Evaluation deltas by outcome" });
    expect(await figure.locator('[data-testid="legend"] li').allTextContents()).toEqual([
      "promoted",
      "overridden by a lead",
      "awaiting approval",
      "rejected",
      "not promoted",
      "improved above 0.05",
    ]);
    await figure.locator(".recharts-bar-rectangle path").first().waitFor();
    const bars = await figure
      .locator(".recharts-bar-rectangle path")
      .evaluateAll((paths) => paths.map((p) => [p.getAttribute("fill"), Math.round(p.getBoundingClientRect().height) > 0]));
    expect(bars).toEqual([
      [GREEN, true],
      [SLATE, true],
      [CYAN, true],
      [RED, true],
    ]);
    // The regressed one hangs below the zero line, the others stand on it.
    const tops = await figure.locator(".recharts-bar-rectangle path").evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect()));
    const zero = (await figure.locator(".recharts-reference-line line").first().boundingBox())!;
    expect(tops.map((box) => Math.round(box.top) >= Math.round(zero.y) - 1)).toEqual([false, true, false, false]);
    expect(await figure.locator(".recharts-reference-line").count()).toBe(2);
    await figure.locator("summary").click();
    const rows = await figure
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    expect(rows).toEqual([
      [`#${amendments[0]}`, "plotted", "+0.08", "improved", "promoted"],
      [`#${amendments[1]}`, "sloped", "-0.15", "regressed", "not promoted"],
      [`#${amendments[2]}`, "held", "+0.30", "improved", "awaiting approval"],
      [`#${amendments[3]}`, "held", "+0.30", "improved", "rejected"],
    ]);
    await fitsTheScreen();
  });

  it("plots an evaluation's cases original → amended, regressions first and in red", async () => {
    await page.goto(`${baseUrl}/t/charts/history/evaluations/${mixed.evaluationId}`);
    const figure = page.getByRole("figure", { name: "Case scores, original to amended" });
    await figure.locator("circle[data-end]").first().waitFor();
    const dots = await figure
      .locator("circle[data-end]")
      .evaluateAll((circles) => circles.map((c) => [c.getAttribute("data-end"), c.getAttribute("data-change")]));
    expect(dots).toEqual([
      ["original", "regressed"],
      ["amended", "regressed"],
      ["original", "unchanged"],
      ["amended", "unchanged"],
      ["original", "improved"],
      ["amended", "improved"],
      ["original", "improved"],
      ["amended", "improved"],
    ]);
    // The regression's line is red and runs from its original score right of its amended one: top row, first.
    expect(await figure.locator(".recharts-scatter-line path").first().getAttribute("stroke")).toBe(RED);
    const [original, amended] = await figure
      .locator("circle[data-change='regressed']")
      .evaluateAll((circles) => circles.map((c) => Number(c.getAttribute("cx"))));
    expect(original!).toBeGreaterThan(amended!);
    await figure.locator("summary").click();
    const rows = await figure
      .locator("tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    expect(rows).toEqual([
      ["worse: the plotted rollout", "0.80", "0.50", "regressed"],
      ["same: the plotted review", "0.70", "0.70", "unchanged"],
      ["better: the first plotted run", "0.50", "0.80", "improved"],
      ["better: the second plotted run", "0.50", "0.80", "improved"],
    ]);
    await fitsTheScreen();
  });

  it("has no serious accessibility finding on either page", async () => {
    expect([
      ...(await seriousViolations(page, `${baseUrl}/t/charts/history`)),
      ...(await seriousViolations(page, `${baseUrl}/t/charts/history/evaluations/${mixed.evaluationId}`)),
    ]).toEqual([]);
  });
});
