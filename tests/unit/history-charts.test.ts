import { describe, expect, it } from "vitest";
import { decisionOf, decisionsByWeek, type DecisionEventCount } from "@/lib/evolution/promotion-decisions";
import { evaluationBars, outcomeOf, undrawnEvaluations, type EvaluatedAmendment } from "@/lib/evolution/evaluation-outcomes";
import { undrawnNote } from "@/components/history/undrawn-note";
import { plottedCases } from "@/lib/evolution/case-plot";
import { IMPROVED_ABOVE, verdictOf, type Dimensions } from "@/lib/evolution/verdict";

/** Issue 27: the history's charts are shaped by pure functions; these are their exact buckets, bars and rows. */

const counted = (week: string, kind: string, count: number, extra: Partial<DecisionEventCount> = {}): DecisionEventCount => ({
  week,
  kind,
  auto: false,
  verdict: null,
  count,
  ...extra,
});

describe("promotion decisions by week", () => {
  it.each<[string, Partial<DecisionEventCount>, string | null]>([
    ["promoted", { auto: true }, "auto-promoted"],
    ["promoted", {}, "draft-promoted"],
    ["approved", {}, "approved"],
    ["overridden", {}, "overridden"],
    ["rejected", {}, "rejected"],
    ["rolled-back", {}, "rolled-back"],
    ["evaluated", { verdict: "neutral" }, "not-promoted"],
    ["evaluated", { verdict: "regressed" }, "not-promoted"],
    ["evaluated", { verdict: "inconclusive" }, "not-promoted"],
    ["evaluated", { verdict: "improved" }, null],
    ["edited", {}, null],
    ["pinned", {}, null],
  ])("reads %s %j as %s", (kind, extra, decision) => {
    expect(decisionOf({ auto: false, verdict: null, kind, ...extra })).toBe(decision);
  });

  it("sums each week's events by decision, oldest week first, and leaves out weeks with nothing decided", () => {
    const weeks = decisionsByWeek([
      counted("2026-11-30", "approved", 2),
      counted("2026-11-16", "promoted", 3, { auto: true }),
      counted("2026-11-16", "promoted", 1),
      counted("2026-11-16", "evaluated", 4, { verdict: "neutral" }),
      counted("2026-11-16", "evaluated", 2, { verdict: "regressed" }),
      counted("2026-11-16", "evaluated", 5, { verdict: "improved" }),
      counted("2026-11-23", "evaluated", 7, { verdict: "improved" }),
      counted("2026-11-30", "rejected", 1),
      counted("2026-11-30", "overridden", 1),
      counted("2026-11-30", "rolled-back", 2),
    ]);
    expect(weeks).toEqual([
      {
        week: "2026-11-16",
        "auto-promoted": 3,
        approved: 0,
        overridden: 0,
        "draft-promoted": 1,
        rejected: 0,
        "not-promoted": 6,
        "rolled-back": 0,
      },
      {
        week: "2026-11-30",
        "auto-promoted": 0,
        approved: 2,
        overridden: 1,
        "draft-promoted": 0,
        rejected: 1,
        "not-promoted": 0,
        "rolled-back": 2,
      },
    ]);
    expect(decisionsByWeek([])).toEqual([]);
  });
});

// An amendment's number is never its evaluation's: ten more, here.
const evaluated = (id: number, extra: Partial<EvaluatedAmendment>): EvaluatedAmendment => ({
  id,
  amendmentId: id + 10,
  skillName: "s",
  status: "finished",
  verdict: "improved",
  delta: 0.2,
  promotedVersion: null,
  amendment: { status: "evaluated", decision: null },
  ...extra,
});

describe("evaluation outcomes", () => {
  it.each<[string, Partial<EvaluatedAmendment>, string]>([
    ["promoted on its own", { promotedVersion: 2, amendment: { status: "promoted", decision: null } }, "promoted"],
    ["approved", { promotedVersion: 2, amendment: { status: "promoted", decision: "approved" } }, "promoted"],
    [
      "overridden against a neutral verdict",
      { verdict: "neutral", delta: 0.01, promotedVersion: 3, amendment: { status: "promoted", decision: "overridden" } },
      "overridden",
    ],
    ["awaiting approval", { amendment: { status: "awaiting-approval", decision: null } }, "awaiting-approval"],
    ["rejected", { amendment: { status: "rejected", decision: "rejected" } }, "rejected"],
    ["neutral", { verdict: "neutral", delta: 0.02 }, "not-promoted"],
    [
      "an earlier neutral one of an amendment now awaiting",
      { verdict: "neutral", amendment: { status: "awaiting-approval", decision: null } },
      "not-promoted",
    ],
    ["improved on a file skill (a patch)", { amendment: { status: "evaluated", decision: null } }, "not-promoted"],
  ])("%s → %s", (_what, extra, outcome) => {
    expect(outcomeOf(evaluated(1, extra))).toBe(outcome);
  });

  it("draws one bar per finished evaluation with a delta, oldest first; running, failed and empty ones have none", () => {
    const bars = evaluationBars([
      evaluated(9, { verdict: "regressed", delta: -0.3 }),
      evaluated(8, { status: "running", verdict: null, delta: null }),
      evaluated(7, { status: "failed", verdict: null, delta: null }),
      evaluated(6, { verdict: "inconclusive", delta: null }),
      evaluated(4, { amendment: { status: "awaiting-approval", decision: null } }),
      evaluated(2, { promotedVersion: 2, delta: 0.4, amendment: { status: "promoted", decision: null } }),
    ]);
    expect(bars).toEqual([
      { id: 2, amendmentId: 12, skill: "s", verdict: "improved", delta: 0.4, outcome: "promoted" },
      { id: 4, amendmentId: 14, skill: "s", verdict: "improved", delta: 0.2, outcome: "awaiting-approval" },
      { id: 9, amendmentId: 19, skill: "s", verdict: "regressed", delta: -0.3, outcome: "not-promoted" },
    ]);
  });

  it("lists what the chart leaves out, oldest first, and why; the note says it by amendment number, one sentence a reason", () => {
    const undrawn = undrawnEvaluations([
      evaluated(9, { verdict: "regressed", delta: -0.3 }),
      evaluated(8, { status: "running", verdict: null, delta: null }),
      evaluated(7, { status: "failed", verdict: null, delta: null }),
      evaluated(6, { verdict: "inconclusive", delta: null }),
      evaluated(5, { verdict: "inconclusive", delta: null }),
      evaluated(3, { verdict: "inconclusive", delta: null }),
    ]);
    expect(undrawn).toEqual([
      { id: 3, amendmentId: 13, why: "inconclusive" },
      { id: 5, amendmentId: 15, why: "inconclusive" },
      { id: 6, amendmentId: 16, why: "inconclusive" },
      { id: 7, amendmentId: 17, why: "failed" },
      { id: 8, amendmentId: 18, why: "running" },
    ]);
    expect(undrawnNote(undrawn)).toBe(
      "3 inconclusive evaluations are not drawn: amendments #13, #15 and #16 had no judged case, so no delta. " +
        "1 evaluation is still running, not drawn yet: amendment #18. 1 failed evaluation is not drawn: amendment #17.",
    );
    // An amendment judged inconclusive twice is named once.
    expect(undrawnNote(undrawn.filter((e) => e.id === 5).flatMap((e) => [e, { ...e, id: 10 }]))).toBe(
      "2 inconclusive evaluations are not drawn: amendment #15 had no judged case, so no delta.",
    );
    expect(undrawnNote(Array.from({ length: 7 }, (_, i) => ({ id: i, amendmentId: 20 + i, why: "failed" as const })))).toBe(
      "7 failed evaluations are not drawn: amendments #20, #21, #22, #23, #24 and 2 more.",
    );
    expect(undrawnNote([])).toBeNull();
  });

  it("shows the threshold the verdict itself uses: a delta of exactly it is not improved, just above it is", () => {
    const flat = (score: number): Dimensions => ({ correctness: score, completeness: score, adherence: score });
    expect(IMPROVED_ABOVE).toBe(0.05);
    expect(verdictOf([{ original: flat(0.5), amended: flat(0.5 + IMPROVED_ABOVE) }]).verdict).toBe("neutral");
    expect(verdictOf([{ original: flat(0.5), amended: flat(0.550000001) }]).verdict).toBe("improved");
  });
});

describe("an evaluation's case plot", () => {
  const scores = (c: number, m: number, a: number): Dimensions => ({ correctness: c, completeness: m, adherence: a });
  const judged = (observationId: number, original: Dimensions | null, amended: Dimensions | null) => ({
    observationId,
    task: `task ${observationId}`,
    original,
    amended,
  });

  it("puts regressions first, largest drop on top, then unchanged, then improvements smallest gain first; unjudged cases are left out", () => {
    const rows = plottedCases([
      judged(1, scores(0.5, 0.5, 0.5), scores(0.9, 0.9, 0.9)),
      judged(2, scores(0.6, 0.6, 0.6), scores(0.5, 0.5, 0.5)),
      judged(3, null, null),
      // Unchanged in exact arithmetic, though as floats 0.1 + 0.2 + 0.3 is above 0.3 + 0.2 + 0.1: sorted by float gain, it would come after 7.
      judged(4, scores(0.3, 0.2, 0.1), scores(0.1, 0.2, 0.3)),
      judged(5, scores(0.9, 0.9, 0.9), scores(0.3, 0.3, 0.3)),
      judged(6, scores(0.5, 0.5, 0.5), scores(0.6, 0.6, 0.6)),
      judged(7, scores(0.4, 0.4, 0.4), scores(0.4, 0.4, 0.4)),
    ]);
    expect(rows.map((row) => [row.observationId, row.change])).toEqual([
      [5, "regressed"],
      [2, "regressed"],
      [4, "unchanged"],
      [7, "unchanged"],
      [6, "improved"],
      [1, "improved"],
    ]);
    expect(rows[0]).toEqual({ observationId: 5, task: "task 5", original: 0.9, amended: 0.3, change: "regressed" });
    expect(plottedCases([judged(1, null, null)])).toEqual([]);
  });
});
