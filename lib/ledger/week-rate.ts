import { percent } from "../format";

/**
 * A week's pass rate rests on however many verdicts were recorded that week: with 1–3 of them it
 * swings between 0 and 100% on a single verdict. Below this many, the chart draws the week's point
 * hollow and says so, and every point carries its n.
 */
export const FEW_VERDICTS = 5;

export interface VerdictCounts {
  confirmed: number;
  refuted: number;
  inconclusive: number;
}

/** One week of verdicts: its pass rate (null when nothing was judged), n, and whether n is too few to read much into. */
export interface WeekRate extends VerdictCounts {
  /** Monday of the week, `YYYY-MM-DD`, UTC. */
  week: string;
  verdicts: number;
  rate: number | null;
  few: boolean;
}

/** Prediction pass rate = confirmed / (confirmed + refuted + inconclusive) (docs/ledger.md#pass-rates); null when nothing has been judged: not 0%. */
export function passRateOf({ confirmed, refuted, inconclusive }: VerdictCounts): number | null {
  const judged = confirmed + refuted + inconclusive;
  return judged === 0 ? null : confirmed / judged;
}

/** Each week's counts as the ledger page shows them: with the rate, the number of verdicts it rests on, and whether that is few. */
export function weekRate(row: VerdictCounts & { week: string }): WeekRate {
  const verdicts = row.confirmed + row.refuted + row.inconclusive;
  return {
    week: row.week,
    confirmed: row.confirmed,
    refuted: row.refuted,
    inconclusive: row.inconclusive,
    verdicts,
    rate: passRateOf(row),
    few: verdicts < FEW_VERDICTS,
  };
}

/** "67% (n=6)": a week's rate with the number of verdicts it rests on, as the tooltip and the table say it. */
export function rateWithN(week: Pick<WeekRate, "rate" | "verdicts">): string {
  return `${percent(week.rate)} (n=${week.verdicts})`;
}
