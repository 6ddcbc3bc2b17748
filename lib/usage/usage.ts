import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { skillViews } from "@/db/schema";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";

/**
 * Real usage (§9), from views: what agents actually load, computed in SQL. Eval runs never write
 * views, so they never count here.
 */

const DAY = 24 * 60 * 60 * 1000;

export interface SkillUsageRow {
  name: string;
  views7d: number;
  views30d: number;
  lastViewedAt: string | null;
  /** Distinct agent sessions that loaded it in the last 30 days. */
  sessions: number;
}

export interface CoLoadedPair {
  a: string;
  b: string;
  /** Sessions (last 30 days) that loaded both. */
  sessions: number;
  /** Of the sessions that loaded the rarer of the two, the share that loaded both: near 1 means merge candidates. */
  share: number;
}

export async function usageReport(db: Db, catalogs: CatalogCache, team: CatalogKey, now = new Date()) {
  const weekAgo = new Date(now.getTime() - 7 * DAY).toISOString();
  const monthAgo = new Date(now.getTime() - 30 * DAY);
  const [rows, pairs, catalog] = await Promise.all([
    db
      .select({
        name: skillViews.skillName,
        views7d: sql<number>`count(*) filter (where ${skillViews.viewedAt} >= ${weekAgo}::timestamptz)`.mapWith(Number),
        views30d: sql<number>`count(*) filter (where ${skillViews.viewedAt} >= ${monthAgo.toISOString()}::timestamptz)`.mapWith(Number),
        lastViewedAt: sql<string | null>`max(${skillViews.viewedAt})`,
        sessions: sql<number>`count(distinct ${skillViews.sessionId}) filter (where ${skillViews.viewedAt} >= ${monthAgo.toISOString()}::timestamptz)`.mapWith(Number),
      })
      .from(skillViews)
      .where(eq(skillViews.teamId, team.id))
      .groupBy(skillViews.skillName),
    coLoaded(db, team.id, monthAgo),
    catalogs.catalog(team),
  ]);
  const skills: SkillUsageRow[] = rows
    .map((row) => ({ ...row, lastViewedAt: row.lastViewedAt ? new Date(row.lastViewedAt).toISOString() : null }))
    .sort((x, y) => y.views30d - x.views30d || (x.name < y.name ? -1 : 1));
  const viewed = new Set(skills.map((s) => s.name));
  const neverLoaded = catalog.active.filter((skill) => !viewed.has(skill.name)).map((skill) => skill.name as string);
  return { skills, neverLoaded, coLoaded: pairs };
}

/** Pairs of skills loaded in the same sessions; the SQL joins each session's distinct loads with themselves. */
async function coLoaded(db: Db, teamId: number, since: Date): Promise<CoLoadedPair[]> {
  const result = await db.execute(sql`
    with loads as (
      select distinct session_id, skill_name from skill_views
      where team_id = ${teamId} and session_id is not null and viewed_at >= ${since.toISOString()}::timestamptz
    ),
    per_skill as (select skill_name, count(*) as sessions from loads group by skill_name)
    select x.skill_name as a, y.skill_name as b, count(*)::int as sessions,
           count(*)::float / least(px.sessions, py.sessions) as share
    from loads x
    join loads y on x.session_id = y.session_id and x.skill_name < y.skill_name
    join per_skill px on px.skill_name = x.skill_name
    join per_skill py on py.skill_name = y.skill_name
    group by x.skill_name, y.skill_name, px.sessions, py.sessions
    having count(*) >= 2
    order by sessions desc, share desc, a, b
    limit 50`);
  const rows = (result as unknown as { rows: { a: string; b: string; sessions: number; share: number }[] }).rows;
  return rows.map((row) => ({ a: row.a, b: row.b, sessions: Number(row.sessions), share: Number(row.share) }));
}
