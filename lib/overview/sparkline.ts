import { viewsInLast } from "../usage/view-days";

/** "2 views in 7 days, 8 views in 30 days": what a view sparkline says to someone who cannot see it. */
export function sparklineText(days: readonly number[]): string {
  const views = (count: number) => `${count} ${count === 1 ? "view" : "views"}`;
  return `${views(viewsInLast(days, 7))} in 7 days, ${views(viewsInLast(days, days.length))} in ${days.length} days`;
}

/**
 * The views a full bar stands for: the busiest day of any of the skills shown, so the table's
 * sparklines compare (one view a day draws a stub beside a busy skill, not the same block).
 */
export function sparklineScale(skills: readonly { dailyViews: readonly number[] }[]): number {
  return Math.max(0, ...skills.flatMap((skill) => skill.dailyViews));
}

/** Each day's bar height out of `height`, the `scale` filling it; a day with any view shows at least one unit. */
export function barHeights(days: readonly number[], height: number, scale: number): number[] {
  return days.map((views) => (views === 0 ? 0 : Math.max(1, Math.round((views / scale) * height))));
}
