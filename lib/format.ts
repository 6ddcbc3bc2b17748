/** A rate as the dashboard shows it: a whole percentage, or a dash when there is nothing to count. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)}%`;
}

const TWO_DECIMALS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "negative" });
const SIGNED_TWO_DECIMALS = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});

/**
 * A score, a delta or a mean as the dashboard prints it: two decimals, half away from zero (0.075 is
 * 0.08, where `toFixed` says 0.07), never "-0.00"; a dash for nothing. `signed` puts a + on a
 * positive delta, so a change reads as one (docs/decisions.md, "Two decimals").
 */
export function twoDecimals(value: number | null | undefined, { signed = false }: { signed?: boolean } = {}): string {
  if (value === null || value === undefined) return "—";
  return (signed ? SIGNED_TWO_DECIMALS : TWO_DECIMALS).format(value);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The unit a span is said in, by how long it is: days up to two months, then months (30 days), then years. */
function unitOf(span: number): [unit: number, name: string] {
  if (span < HOUR) return [MINUTE, "min"];
  if (span < DAY) return [HOUR, "h"];
  if (span < 60 * DAY) return [DAY, "d"];
  if (span < 365 * DAY) return [30 * DAY, "mo"];
  return [365 * DAY, "y"];
}

/**
 * How long ago (or how soon) `at` is from `now`, as a person reads it: "just now" within a minute,
 * then "5 min ago", "2 h ago", "3 d ago", "4 mo ago", "1 y ago" (whole units, rounded down), or
 * "in 2 h" for a moment still to come (an invitation's expiry).
 */
export function relativeTime(at: Date | string, now: Date): string {
  const diff = now.getTime() - new Date(at).getTime();
  const span = Math.abs(diff);
  if (span < MINUTE) return "just now";
  const [unit, name] = unitOf(span);
  const amount = `${Math.floor(span / unit)} ${name}`;
  return diff > 0 ? `${amount} ago` : `in ${amount}`;
}

/** The exact minute of `at`, in UTC: `2026-11-28 14:05 UTC`. */
export function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
