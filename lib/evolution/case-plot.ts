import { caseChange, caseScore, type CaseChange, type JudgedCase } from "./verdict";

/**
 * An evaluation's cases as the dot plot shows them (docs/evaluation-and-activation.md#evaluation): each judged case's score with the
 * original skill and with the amended one, regressions first so they are the first thing seen.
 */

export interface PlottedCase {
  observationId: number;
  task: string;
  original: number;
  amended: number;
  change: CaseChange;
}

/** The order of the plot's groups: what got worse, what stayed, what got better. */
const GROUP: Record<CaseChange, number> = { regressed: 0, unchanged: 1, improved: 2 };

/**
 * The judged cases (pending and failed ones have no scores), regressions first — the largest drop
 * on top — then unchanged, then improvements, smallest gain first. Each case's change is the
 * verdict's own (exact arithmetic), so a case is never drawn regressed that the verdict counted unchanged.
 */
export function plottedCases(
  cases: { observationId: number; task: string; original: JudgedCase["original"] | null; amended: JudgedCase["amended"] | null }[],
): PlottedCase[] {
  return cases
    .flatMap(({ observationId, task, original, amended }) =>
      original && amended
        ? [{ observationId, task, original: caseScore(original), amended: caseScore(amended), change: caseChange({ original, amended }) }]
        : [],
    )
    .sort((a, b) => GROUP[a.change] - GROUP[b.change] || gain(a) - gain(b) || a.observationId - b.observationId);
}

/** Amended minus original; none for an unchanged case, whose float scores may differ in the last digit. */
function gain(plotted: PlottedCase): number {
  return plotted.change === "unchanged" ? 0 : plotted.amended - plotted.original;
}
