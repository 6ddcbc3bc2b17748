// The rows of a bench run that fell behind the last committed run (bench/results.json), so a
// regression is seen the day it lands rather than when a row finally misses its aim.

/** What a regression check needs of a row. */
export interface RatioRow {
  name: string;
  database?: string;
  ratio: number;
  aim: string;
}

export interface Regression {
  row: string;
  before: number;
  now: number;
}

/** How far a ratio may move the wrong way before it is said: 5 points (0.05×). */
export const TOLERANCE = 0.05;

/** Which way is better for a row, read from its aim: "≥ 0.9×" wants more, "≤ 3×" and "< 1×" want less. */
function better(aim: string): "higher" | "lower" | null {
  if (aim.startsWith("≥")) return "higher";
  if (aim.startsWith("≤") || aim.startsWith("<")) return "lower";
  return null;
}

const label = (row: RatioRow) => (row.database ? `${row.name} (${row.database})` : row.name);

/** The rows of `now` whose ratio moved more than TOLERANCE the wrong way from the same row in `before`. */
export function regressions(before: RatioRow[], now: RatioRow[]): Regression[] {
  const earlier = new Map(before.map((row) => [label(row), row]));
  return now.flatMap((row) => {
    const previous = earlier.get(label(row));
    const direction = better(row.aim);
    if (!previous || !direction) return [];
    const fell = direction === "higher" ? previous.ratio - row.ratio : row.ratio - previous.ratio;
    return fell > TOLERANCE ? [{ row: label(row), before: previous.ratio, now: row.ratio }] : [];
  });
}
