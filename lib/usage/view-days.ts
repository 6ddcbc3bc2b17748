import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillViewDays } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { daysBefore } from "./rollups";

/** The days a view sparkline shows: today and the 29 before it, as the 30-day figures count them. */
export const SPARKLINE_DAYS = 30;

/**
 * Views per day of the named skills over the last 30 whole UTC days, oldest first, from the day
 * rollup: one short row per skill per day viewed, read only for the skills a page shows.
 */
export async function dailyViews(db: Db, teamId: TeamId, names: readonly string[], now = new Date()): Promise<Map<string, number[]>> {
  const days = Array.from({ length: SPARKLINE_DAYS }, (_, i) => daysBefore(now, SPARKLINE_DAYS - 1 - i));
  const rows =
    names.length === 0
      ? []
      : await db
          .select({ name: skillViewDays.skillName, day: skillViewDays.day, views: skillViewDays.views })
          .from(skillViewDays)
          .where(
            and(
              eq(skillViewDays.teamId, teamId),
              gte(skillViewDays.day, daysBefore(now, SPARKLINE_DAYS - 1)),
              inArray(skillViewDays.skillName, [...names]),
            ),
          );
  const position = new Map(days.map((day, i) => [day as string, i]));
  const byName = new Map(names.map((name) => [name, Array<number>(SPARKLINE_DAYS).fill(0)]));
  for (const row of rows) {
    const i = position.get(row.day);
    const series = byName.get(row.name);
    if (i !== undefined && series) series[i] = row.views;
  }
  return byName;
}

/** Views in the last `days` days of a daily series (oldest first). */
export function viewsInLast(series: readonly number[], days: number): number {
  return series.slice(-days).reduce((sum, views) => sum + views, 0);
}

/** Views of every skill viewed in the last `days` days (7 or 30), summed over only those days of the rollup. */
export async function viewsPerSkill(db: Db, teamId: TeamId, days: 7 | 30, now = new Date()): Promise<Map<string, number>> {
  const rows = await db
    .select({ name: skillViewDays.skillName, views: sql<number>`sum(${skillViewDays.views})`.mapWith(Number) })
    .from(skillViewDays)
    .where(and(eq(skillViewDays.teamId, teamId), gte(skillViewDays.day, daysBefore(now, days - 1))))
    .groupBy(skillViewDays.skillName);
  return new Map(rows.map((row) => [row.name, row.views]));
}
