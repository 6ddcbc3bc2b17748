import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillViewDays, skillViewTotals } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { daysBefore } from "./rollups";

/**
 * Usage read from the rollups (db/schema/usage.ts), never from the views themselves: a row per
 * skill per day of the window, so the cost does not grow with history. Windows are whole UTC
 * days: "7 days" is today and the six days before it.
 */

export interface SkillUsage {
  views7d: number;
  views30d: number;
  lastViewedAt: Date | null;
  /** Agent sessions whose first load of it fell in the last 30 days. */
  sessions: number;
}

/** Usage of every skill ever viewed, by name. */
export async function usageBySkill(db: Db, teamId: TeamId, now = new Date()): Promise<Map<string, SkillUsage>> {
  const [inWindow, lastViewed] = await Promise.all([viewSums(db, teamId, now), lastViewedBySkill(db, teamId)]);
  return new Map(
    [...lastViewed].map(([name, lastViewedAt]) => {
      const seen = inWindow.get(name);
      return [name, { views7d: seen?.views7d ?? 0, views30d: seen?.views30d ?? 0, sessions: seen?.sessions ?? 0, lastViewedAt }];
    }),
  );
}

/** Views in 7 and 30 days and sessions in 30, of every skill viewed in the last 30 days. */
async function viewSums(
  db: Db,
  teamId: TeamId,
  now = new Date(),
): Promise<Map<string, { views7d: number; views30d: number; sessions: number }>> {
  const rows = await db
    .select({
      name: skillViewDays.skillName,
      views7d: sql<number>`sum(${skillViewDays.views}) filter (where ${skillViewDays.day} >= ${daysBefore(now, 6)})`.mapWith(Number),
      views30d: sql<number>`sum(${skillViewDays.views})`.mapWith(Number),
      sessions: sql<number>`sum(${skillViewDays.sessions})`.mapWith(Number),
    })
    .from(skillViewDays)
    .where(and(eq(skillViewDays.teamId, teamId), gte(skillViewDays.day, daysBefore(now, 29))))
    .groupBy(skillViewDays.skillName);
  return new Map(rows.map((row) => [row.name, { views7d: row.views7d ?? 0, views30d: row.views30d, sessions: row.sessions }]));
}

/** When each skill ever viewed was last viewed: one row per skill, however long its history. */
export async function lastViewedBySkill(db: Db, teamId: TeamId): Promise<Map<string, Date>> {
  const rows = await db
    .select({ name: skillViewTotals.skillName, lastViewedAt: sql<string>`max(${skillViewTotals.lastViewedAt})` })
    .from(skillViewTotals)
    .where(eq(skillViewTotals.teamId, teamId))
    .groupBy(skillViewTotals.skillName);
  return new Map(rows.map((row) => [row.name, new Date(row.lastViewedAt)]));
}

/** Views in the last 7 days and in the 7 days before: the headline trend. */
export async function weeklyViewTrend(db: Db, teamId: TeamId, now = new Date()): Promise<{ thisWeek: number; lastWeek: number }> {
  const [row] = await db
    .select({
      thisWeek: sql<number>`coalesce(sum(${skillViewDays.views}) filter (where ${skillViewDays.day} >= ${daysBefore(now, 6)}), 0)`.mapWith(
        Number,
      ),
      lastWeek: sql<number>`coalesce(sum(${skillViewDays.views}) filter (where ${skillViewDays.day} < ${daysBefore(now, 6)}), 0)`.mapWith(
        Number,
      ),
    })
    .from(skillViewDays)
    .where(and(eq(skillViewDays.teamId, teamId), gte(skillViewDays.day, daysBefore(now, 13))));
  return row ?? { thisWeek: 0, lastWeek: 0 };
}

/**
 * "Never loaded" (docs/evaluation-and-activation.md#real-usage): an active skill that no agent loaded (a view) and no agent's telemetry
 * reported activated (docs/telemetry.md#activations) in the 30 days the usage covers.
 */
export function neverLoaded(
  skill: { name: string; status: string },
  usage: ReadonlyMap<string, unknown>,
  activated: ReadonlyMap<string, unknown>,
): boolean {
  return skill.status === "active" && !usage.has(skill.name) && !activated.has(skill.name);
}
