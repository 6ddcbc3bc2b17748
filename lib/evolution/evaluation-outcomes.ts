import type { AmendmentEntry } from "./amendments";
import type { Verdict } from "./verdict";

/**
 * The history's evaluations as the chart of their deltas shows them (docs/evaluation-and-activation.md#evaluation, docs/learned-skills.md#history): one bar per
 * evaluation that has a delta, oldest first, with what became of its amendment because of it.
 */

/** What an evaluation led to, in the order the legend lists them. */
export const EVALUATION_OUTCOMES = ["promoted", "overridden", "awaiting-approval", "rejected", "not-promoted"] as const;
export type EvaluationOutcome = (typeof EVALUATION_OUTCOMES)[number];

export interface EvaluatedAmendment {
  id: number;
  amendmentId: number;
  skillName: string;
  status: string;
  verdict: Verdict | null;
  delta: number | null;
  promotedVersion: number | null;
  amendment: Pick<AmendmentEntry, "status" | "decision"> | null;
}

export interface EvaluationBar {
  id: number;
  /** The number a lead knows it by: the chart labels the bar with it (docs/decisions/one-number.md). */
  amendmentId: number;
  skill: string;
  verdict: Verdict;
  delta: number;
  outcome: EvaluationOutcome;
}

/**
 * - it put a version live → promoted (on its own or approved), or overridden when a lead put it live against its verdict;
 * - judged improved and its amendment waits for a lead, or was refused → awaiting-approval, rejected;
 * - anything else → not-promoted (a verdict short of improved, or a built-in or file skill's patch).
 * An amendment is judged again only from pending or evaluated, so an improved verdict on one awaiting approval or
 * rejected is the verdict that put it there.
 */
export function outcomeOf(evaluation: Pick<EvaluatedAmendment, "verdict" | "promotedVersion" | "amendment">): EvaluationOutcome {
  if (evaluation.promotedVersion !== null) return evaluation.amendment?.decision === "overridden" ? "overridden" : "promoted";
  if (evaluation.verdict === "improved" && evaluation.amendment?.status === "awaiting-approval") return "awaiting-approval";
  if (evaluation.verdict === "improved" && evaluation.amendment?.status === "rejected") return "rejected";
  return "not-promoted";
}

/** The finished evaluations with a delta, oldest first (running and failed ones, and those with nothing judged, have none). */
export function evaluationBars(evaluations: EvaluatedAmendment[]): EvaluationBar[] {
  return evaluations
    .flatMap((e) =>
      e.status === "finished" && e.verdict !== null && e.delta !== null
        ? [{ id: e.id, amendmentId: e.amendmentId, skill: e.skillName, verdict: e.verdict, delta: e.delta, outcome: outcomeOf(e) }]
        : [],
    )
    .sort((a, b) => a.id - b.id);
}

/** Why an evaluation has no bar: still running, failed, or inconclusive (no case judged, so no delta). */
export type Undrawn = "running" | "failed" | "inconclusive";

export interface UndrawnEvaluation {
  id: number;
  amendmentId: number;
  why: Undrawn;
}

/** The evaluations `evaluationBars` leaves out, oldest first, each with why: the chart says so under itself. */
export function undrawnEvaluations(evaluations: EvaluatedAmendment[]): UndrawnEvaluation[] {
  return evaluations
    .flatMap((e): UndrawnEvaluation[] => {
      const why: Undrawn | null =
        e.status === "running"
          ? "running"
          : e.status === "failed"
            ? "failed"
            : e.verdict === null || e.delta === null
              ? "inconclusive"
              : null;
      return why ? [{ id: e.id, amendmentId: e.amendmentId, why }] : [];
    })
    .sort((a, b) => a.id - b.id);
}
