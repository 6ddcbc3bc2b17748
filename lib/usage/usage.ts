import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { usageBySkill } from "./stats";

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

/** What reading usage needs: the database, the catalogs, and this instance's view buffer. */
export interface UsageDeps {
  db: Db;
  catalogs: CatalogCache;
  /** Flushed first, so a view this instance acknowledged is counted (read-your-writes; docs/decisions.md). */
  views: { flush(): Promise<void> };
}

export async function usageReport({ db, catalogs, views }: UsageDeps, team: CatalogKey, now = new Date()) {
  await views.flush();
  const monthAgo = new Date(now.getTime() - 30 * DAY);
  const [usage, pairs, catalog] = await Promise.all([
    usageBySkill(db, team.id, now),
    coLoaded(db, team.id, monthAgo),
    catalogs.catalog(team),
  ]);
  const skills: SkillUsageRow[] = [...usage.entries()]
    .map(([name, u]) => ({
      name,
      views7d: u.views7d,
      views30d: u.views30d,
      lastViewedAt: u.lastViewedAt?.toISOString() ?? null,
      sessions: u.sessions,
    }))
    .sort((x, y) => y.views30d - x.views30d || (x.name < y.name ? -1 : 1));
  const neverLoaded = catalog.active.filter((skill) => !usage.has(skill.name)).map((skill) => skill.name as string);
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
