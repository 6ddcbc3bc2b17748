import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillViews } from "@/db/schema";
import type { TeamId } from "../teams/teams";

export interface SkillUsage {
  views7d: number;
  views30d: number;
  lastViewedAt: Date | null;
  /** Distinct agent sessions that loaded it in the last 30 days. */
  sessions: number;
}

const DAY = 24 * 60 * 60 * 1000;

/** Views per skill over the last 7 and 30 days, and the sessions behind them, computed in SQL. */
export async function usageBySkill(db: Db, teamId: TeamId, now = new Date()): Promise<Map<string, SkillUsage>> {
  const weekAgo = new Date(now.getTime() - 7 * DAY);
  const monthAgo = new Date(now.getTime() - 30 * DAY);
  const rows = await db
    .select({
      name: skillViews.skillName,
      views7d: sql<number>`count(*) filter (where ${skillViews.viewedAt} >= ${weekAgo.toISOString()}::timestamptz)`.mapWith(Number),
      views30d: sql<number>`count(*) filter (where ${skillViews.viewedAt} >= ${monthAgo.toISOString()}::timestamptz)`.mapWith(Number),
      lastViewedAt: sql<string | null>`max(${skillViews.viewedAt})`,
      sessions:
        sql<number>`count(distinct ${skillViews.sessionId}) filter (where ${skillViews.viewedAt} >= ${monthAgo.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
    })
    .from(skillViews)
    .where(eq(skillViews.teamId, teamId))
    .groupBy(skillViews.skillName);
  return new Map(
    rows.map((row) => [
      row.name,
      {
        views7d: row.views7d,
        views30d: row.views30d,
        lastViewedAt: row.lastViewedAt ? new Date(row.lastViewedAt) : null,
        sessions: row.sessions,
      },
    ]),
  );
}

/** Views in the last 7 days and in the 7 days before: the headline trend. */
export async function weeklyViewTrend(db: Db, teamId: TeamId, now = new Date()): Promise<{ thisWeek: number; lastWeek: number }> {
  const weekAgo = new Date(now.getTime() - 7 * DAY);
  const twoWeeksAgo = new Date(now.getTime() - 14 * DAY);
  const [row] = await db
    .select({
      thisWeek: sql<number>`count(*) filter (where ${skillViews.viewedAt} >= ${weekAgo.toISOString()}::timestamptz)`.mapWith(Number),
      lastWeek: sql<number>`count(*) filter (where ${skillViews.viewedAt} < ${weekAgo.toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(skillViews)
    .where(and(eq(skillViews.teamId, teamId), gte(skillViews.viewedAt, twoWeeksAgo)));
  return row ?? { thisWeek: 0, lastWeek: 0 };
}
