/**
 * The verdict rules of docs/evaluation-and-activation.md#verdict-rules, in exact arithmetic. Scores are decimals in [0, 1]; a case score is
 * the mean of three dimensions and the delta a mean of differences, so floating point would put
 * 0.05 at 0.05000000000000001. Every score is read as the exact decimal its JSON number prints as,
 * scaled to an integer of 10^20, and the threshold is compared without division.
 */

export type Verdict = "improved" | "regressed" | "neutral" | "inconclusive";
export type CaseChange = "improved" | "regressed" | "unchanged";

export interface Dimensions {
  correctness: number;
  completeness: number;
  adherence: number;
}

export interface JudgedCase {
  original: Dimensions;
  amended: Dimensions;
}

/** The delta an amendment must beat to be judged improved (docs/evaluation-and-activation.md#evaluation); the history's evaluation chart draws it. */
export const IMPROVED_ABOVE = 0.05;

const DIGITS = 20;
const SCALE = 10n ** BigInt(DIGITS);

/** The exact decimal value of a finite number as it prints, times 10^20 (rounded half up past 20 digits). */
export function scaled(value: number): bigint {
  if (!Number.isFinite(value)) throw new Error(`not a finite score: ${value}`);
  const [, sign, whole, fraction = "", exponent = "0"] = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value)) ?? [];
  // The whole part is the one group every match has.
  if (whole === undefined) throw new Error(`unreadable score: ${value}`);
  const mantissa = BigInt(whole + fraction);
  const power = Number(exponent) - fraction.length + DIGITS;
  let result: bigint;
  if (power >= 0) result = mantissa * 10n ** BigInt(power);
  else {
    const divisor = 10n ** BigInt(-power);
    result = (mantissa + divisor / 2n) / divisor;
  }
  return sign === "-" ? -result : result;
}

/** Three times the case score: the sum of the dimensions, kept whole so nothing is divided. */
function sumOf(scores: Dimensions): bigint {
  return scaled(scores.correctness) + scaled(scores.completeness) + scaled(scores.adherence);
}

export function caseChange(judged: JudgedCase): CaseChange {
  const difference = sumOf(judged.amended) - sumOf(judged.original);
  return difference > 0n ? "improved" : difference < 0n ? "regressed" : "unchanged";
}

/** Mean of three dimensions, for display. */
export function caseScore(scores: Dimensions): number {
  return (scores.correctness + scores.completeness + scores.adherence) / 3;
}

export interface VerdictResult {
  verdict: Verdict;
  /** Mean over judged cases of amended minus original case score; null with nothing judged. */
  delta: number | null;
  improved: number;
  regressed: number;
  unchanged: number;
}

/**
 * - no usable history (no judged case) → inconclusive;
 * - more regressed than improved → regressed;
 * - delta > IMPROVED_ABOVE (0.05) and more improved than regressed → improved;
 * - otherwise → neutral.
 */
export function verdictOf(cases: JudgedCase[]): VerdictResult {
  const changes = cases.map(caseChange);
  const count = (change: CaseChange) => changes.filter((c) => c === change).length;
  const improved = count("improved");
  const regressed = count("regressed");
  const unchanged = count("unchanged");
  if (cases.length === 0) return { verdict: "inconclusive", delta: null, improved, regressed, unchanged };
  // delta = total / (3 · n · 10^20); delta > t  ⇔  total > 3 · n · (t · 10^20), and t · 10^20 is exact
  const total = cases.reduce((sum, c) => sum + sumOf(c.amended) - sumOf(c.original), 0n);
  const n = BigInt(cases.length);
  const delta = Number((total * 1_000_000_000n) / (3n * n * SCALE)) / 1_000_000_000;
  let verdict: Verdict = "neutral";
  if (regressed > improved) verdict = "regressed";
  else if (total > 3n * n * scaled(IMPROVED_ABOVE) && improved > regressed) verdict = "improved";
  return { verdict, delta, improved, regressed, unchanged };
}
