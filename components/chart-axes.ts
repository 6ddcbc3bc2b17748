/**
 * Axis titles for Recharts, said the same way on every chart: what is measured and in what unit
 * (issue 13: charts without axes). Margins leave room for them.
 */
export const TITLED_MARGIN = { left: 16, right: 16, top: 8, bottom: 28 };

const TITLE_STYLE = { fill: "#475569", fontSize: 12 };

export function xTitle(value: string) {
  return { value, position: "insideBottom" as const, offset: -18, style: TITLE_STYLE };
}

export function yTitle(value: string, side: "left" | "right" = "left") {
  return {
    value,
    angle: side === "left" ? -90 : 90,
    position: side === "left" ? ("insideLeft" as const) : ("insideRight" as const),
    style: { ...TITLE_STYLE, textAnchor: "middle" as const },
  };
}

/** `11-28` from an epoch time or an ISO date: the day on a time axis, in UTC. */
export function dayTick(value: number | string): string {
  return new Date(value).toISOString().slice(5, 10);
}

const WEEK = 7 * 24 * 60 * 60 * 1000;

/** Rows of Monday weeks (`YYYY-MM-DD`, oldest first) with the quiet weeks in between added, so a week axis keeps time. */
export function everyWeek<T extends { week: string }>(rows: T[], empty: (week: string) => T): T[] {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) return rows;
  const byWeek = new Map(rows.map((row) => [row.week, row]));
  const weeks: T[] = [];
  for (let time = Date.parse(first.week); time <= Date.parse(last.week); time += WEEK) {
    const week = new Date(time).toISOString().slice(0, 10);
    weeks.push(byWeek.get(week) ?? empty(week));
  }
  return weeks;
}
