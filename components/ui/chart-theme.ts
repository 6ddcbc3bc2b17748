import type { XAxisProps } from "recharts";
import { percent, utcMinute } from "@/lib/format";

/**
 * The charts' one look: every colour they draw with, their axes and their tooltips' wording. The
 * colours are Tailwind's (named in the comments), so a chart matches the badges and text beside it.
 */
export const CHART_COLORS = {
  /** The figure a chart is about: activation, pass rate, listing length. */
  main: "#4338ca", // indigo-700
  good: "#059669", // emerald-600
  caution: "#d97706", // amber-600
  bad: "#dc2626", // red-600
  neutral: "#64748b", // slate-500
  muted: "#94a3b8", // slate-400
  global: "#0891b2", // cyan-600
  marker: "#7c3aed", // violet-600
  free: "#cbd5e1", // slate-300
  grid: "#e2e8f0", // slate-200
  title: "#475569", // slate-600
} as const;

/** The listing budget bar's parts (lib/listing/budget.ts), each the colour of its group. */
export const SEGMENT_COLORS: Record<string, string> = {
  header: CHART_COLORS.neutral,
  builtin: CHART_COLORS.main,
  global: CHART_COLORS.global,
  workspace: CHART_COLORS.good,
  learned: CHART_COLORS.caution,
  diagnostics: CHART_COLORS.bad,
  marker: CHART_COLORS.marker,
  free: CHART_COLORS.free,
};

export const GRID = { strokeDasharray: "3 3", stroke: CHART_COLORS.grid };

/**
 * Axis titles, said the same way on every chart: what is measured and in what unit (issue 13:
 * charts without axes). Margins leave room for them.
 */
export const TITLED_MARGIN = { left: 16, right: 16, top: 8, bottom: 28 };

const TITLE_STYLE = { fill: CHART_COLORS.title, fontSize: 12 };

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

/** An x axis of epoch milliseconds (a point's `time`), from the first point to the last, ticked by day. */
export const TIME_AXIS: XAxisProps = {
  dataKey: "time",
  type: "number",
  scale: "time",
  domain: ["dataMin", "dataMax"],
  tickFormatter: dayTick,
};

/** A tooltip's heading for a point on a time axis: `2026-11-28 14:05 UTC`. */
export function minuteLabel(time: unknown): string {
  return utcMinute(new Date(Number(time)));
}

/** An x axis of Monday weeks (a point's `week`, `YYYY-MM-DD`), ticked `MM-DD`. */
export const WEEK_AXIS: XAxisProps = {
  dataKey: "week",
  tickFormatter: (week: string) => week.slice(5),
  label: xTitle("week starting (Monday, UTC)"),
};

export function weekLabel(week: unknown): string {
  return `week of ${String(week)}`;
}

/** A rate's axis: 0 to 100%. */
export const RATE_AXIS = { domain: [0, 1], tickFormatter: percent };

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
