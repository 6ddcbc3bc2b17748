import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, seriousViolations, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN, CHARTS_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = async <T>(path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<T> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${CHARTS_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

/** A learned skill with runs on these tasks (the stub judge scores "better…" up, "worse…" down, the rest the same), amended and judged. */
async function judgedAmendment(skill: string, tasks: string[], body: string) {
  await api("/api/v1/skills", {
    name: skill,
    description: `Charts ${skill}. Use when charting.`,
    body: `# ${skill}\n`,
    status: "active",
  }).catch((error: Error) => {
    if (!/409/.test(error.message)) throw error;
  });
  if (tasks.length > 0)
    await api("/api/v1/observations", { observations: tasks.map((task) => ({ skill, task, category: "charts", outcome: "failure" })) });
  const { id } = await api<{ id: number }>(`/api/v1/skills/${skill}/amendments`, { body, rationale: `try ${body}` });
  const report = await api<{ id: number; verdict: string; delta: number }>(`/api/v1/amendments/${id}/evaluate`, {});
  return { id, evaluationId: report.id, verdict: report.verdict, delta: report.delta };
}

/** The history both viewports read, made once by the first. */
let made: { mixed: Awaited<ReturnType<typeof judgedAmendment>>; evaluations: number[] } | undefined;

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
])("the history's charts at $label px", ({ viewport, label }) => {
  let browser: Browser;
  let page: Page;
  let mixed: Awaited<ReturnType<typeof judgedAmendment>>;
  let evaluations: number[];

  beforeAll(async () => {
    if (!made) {
      const mixed = await judgedAmendment(
        "plotted",
        ["better: the first plotted run", "worse: the plotted rollout", "same: the plotted review", "better: the second plotted run"],
        "# plotted\n\nclearer\n",
      );
      const regressed = await judgedAmendment("sloped", ["same: the sloped review", "worse: the sloped deploy"], "# sloped\n\nterser\n");
      await api("/api/v1/settings", { autoPromote: false }, "PATCH");
      const waiting = await judgedAmendment("held", ["better: the held run"], "# held\n\nwaiting\n");
      const refused = await judgedAmendment("held", [], "# held\n\nrefused\n");
      await api(`/api/v1/amendments/${refused.id}/reject`, { reason: "not this quarter" });
      await api("/api/v1/skills/plotted/rollback", { toVersion: 1 });
      expect([mixed, regressed, waiting, refused].map((e) => [e.verdict, e.delta])).toEqual([
        ["improved", 0.075],
        ["regressed", -0.15],
        ["improved", 0.3],
        ["improved", 0.3],
      ]);
      made = { mixed, evaluations: [mixed, regressed, waiting, refused].map((e) => e.evaluationId) };
    }
    ({ mixed, evaluations } = made);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport });
    await signInAt(page, `${baseUrl}/t/charts/history`, BROWSER_LOGIN);
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
      ["not-promoted", "1"],
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
      [`#${evaluations[0]}`, "plotted", "0.075", "improved", "promoted"],
      [`#${evaluations[1]}`, "sloped", "-0.150", "regressed", "not promoted"],
      [`#${evaluations[2]}`, "held", "0.300", "improved", "awaiting approval"],
      [`#${evaluations[3]}`, "held", "0.300", "improved", "rejected"],
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
      ["worse: the plotted rollout", "0.800", "0.500", "regressed"],
      ["same: the plotted review", "0.700", "0.700", "unchanged"],
      ["better: the first plotted run", "0.500", "0.800", "improved"],
      ["better: the second plotted run", "0.500", "0.800", "improved"],
    ]);
    await fitsTheScreen();
  });

  it("has no serious accessibility finding on either page", async () => {
    expect([
      ...(await seriousViolations(page, `${baseUrl}/t/charts/history`)),
      ...(await seriousViolations(page, `${baseUrl}/t/charts/history/evaluations/${mixed.evaluationId}`)),
    ]).toEqual([]);
  });

  it("takes screenshots", async () => {
    if (!process.env.SKILLGATE_SCREENSHOTS) return;
    await page.goto(`${baseUrl}/t/charts/history`);
    await page.locator("figure .recharts-bar-rectangle path").first().waitFor();
    await page.screenshot({ path: `${process.env.SKILLGATE_SCREENSHOTS}/history-${label}.png`, fullPage: true });
    for (const [i, figure] of (await page.locator("figure").all()).entries())
      await figure.screenshot({ path: `${process.env.SKILLGATE_SCREENSHOTS}/history-figure-${i}-${label}.png` });
    await page.goto(`${baseUrl}/t/charts/history/evaluations/${mixed.evaluationId}`);
    await page.locator("circle[data-end]").first().waitFor();
    await page.screenshot({ path: `${process.env.SKILLGATE_SCREENSHOTS}/evaluation-${label}.png`, fullPage: true });
    await page.locator("figure").screenshot({ path: `${process.env.SKILLGATE_SCREENSHOTS}/case-plot-${label}.png` });
  });
});
