import { viewsInLast } from "../usage/view-days";

/** "2 views in 7 days, 8 views in 30 days": what a view sparkline says to someone who cannot see it. */
export function sparklineText(days: readonly number[]): string {
  const views = (count: number) => `${count} ${count === 1 ? "view" : "views"}`;
  return `${views(viewsInLast(days, 7))} in 7 days, ${views(viewsInLast(days, days.length))} in ${days.length} days`;
}

/** Each day's bar height out of `height`: the busiest day fills it; a day with any view shows at least one unit. */
export function barHeights(days: readonly number[], height: number): number[] {
  const most = Math.max(0, ...days);
  return days.map((views) => (views === 0 ? 0 : Math.max(1, Math.round((views / most) * height))));
}
