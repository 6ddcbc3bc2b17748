import type { CaseChange } from "@/lib/evolution/verdict";
import type { EvaluationOutcome } from "@/lib/evolution/evaluation-outcomes";
import type { PromotionDecision } from "@/lib/evolution/promotion-decisions";
import { CHART_COLORS } from "@/components/ui/chart-theme";

/**
 * The history's charts say one thing with one colour: green went live, amber a lead's override,
 * cyan a lead's approval asked for, red refused or worse, violet undone, slate nothing changed. Every colour here is at least 3:1 against
 * white (WCAG 1.4.11 for graphics), and each chart names its series in words too (legend, table).
 */
export interface Swatch {
  label: string;
  color: string;
}

export const DECISION_SWATCHES: Record<PromotionDecision, Swatch> = {
  "auto-promoted": { label: "promoted automatically", color: CHART_COLORS.good },
  approved: { label: "approved by a lead", color: "#0f766e" }, // teal-700
  overridden: { label: "overridden by a lead", color: CHART_COLORS.caution },
  "draft-promoted": { label: "draft promoted", color: CHART_COLORS.main },
  rejected: { label: "rejected by a lead", color: CHART_COLORS.bad },
  "not-promoted": { label: "not promoted (judged not improved)", color: CHART_COLORS.neutral },
  "rolled-back": { label: "rolled back", color: CHART_COLORS.marker },
};

export const OUTCOME_SWATCHES: Record<EvaluationOutcome, Swatch> = {
  promoted: { label: "promoted", color: CHART_COLORS.good },
  overridden: { label: "overridden by a lead", color: CHART_COLORS.caution },
  "awaiting-approval": { label: "awaiting approval", color: CHART_COLORS.global },
  rejected: { label: "rejected", color: CHART_COLORS.bad },
  "not-promoted": { label: "not promoted", color: CHART_COLORS.neutral },
};

export const CHANGE_SWATCHES: Record<CaseChange, Swatch> = {
  regressed: { label: "regressed", color: CHART_COLORS.bad },
  unchanged: { label: "unchanged", color: CHART_COLORS.neutral },
  improved: { label: "improved", color: CHART_COLORS.good },
};
