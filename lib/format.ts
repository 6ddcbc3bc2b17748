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
 * positive delta, so a change reads as one (docs/decisions/two-decimals.md).
 */
export function twoDecimals(value: number | null | undefined, { signed = false }: { signed?: boolean } = {}): string {
  if (value === null || value === undefined) return "—";
  return (signed ? SIGNED_TWO_DECIMALS : TWO_DECIMALS).format(value);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Unit = "minute" | "hour" | "day" | "month" | "year";
/** How long each unit is (a month 30 days), and its short name in a column of past moments. */
const UNITS: Record<Unit, { length: number; short: string }> = {
  minute: { length: MINUTE, short: "min" },
  hour: { length: HOUR, short: "h" },
  day: { length: DAY, short: "d" },
  month: { length: 30 * DAY, short: "mo" },
  year: { length: 365 * DAY, short: "y" },
};

/** The unit a span is said in, by how long it is: days up to two months, then months, then years. */
function unitOf(span: number): Unit {
  if (span < HOUR) return "minute";
  if (span < DAY) return "hour";
  if (span < 60 * DAY) return "day";
  if (span < 365 * DAY) return "month";
  return "year";
}

const ahead = new Intl.RelativeTimeFormat("en-US", { numeric: "always" });

/**
 * How long ago (or how soon) `at` is from `now`, as a person reads it: "just now" within a minute,
 * then "5 min ago", "2 h ago", "3 d ago", "4 mo ago", "1 y ago" (whole units, rounded down: at
 * least that long ago). A moment still to come (an invitation's expiry) is said in words to the
 * nearest unit, "in 7 days": rounded down, a 7-day invitation would read "in 6 d" as it is made.
 */
export function relativeTime(at: Date | string, now: Date): string {
  const diff = now.getTime() - new Date(at).getTime();
  const span = Math.abs(diff);
  if (span < MINUTE) return "just now";
  const unit = unitOf(span);
  const { length, short } = UNITS[unit];
  return diff > 0 ? `${Math.floor(span / length)} ${short} ago` : ahead.format(Math.round(span / length), unit);
}

/** The exact minute of `at`, in UTC: `2026-11-28 14:05 UTC`. */
export function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
