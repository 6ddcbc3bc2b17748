import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { TeamId } from "../teams/teams";

/** One load of a skill by an agent, as recorded. */
export interface SkillView {
  teamId: TeamId;
  skillName: string;
  source: string;
  version: number;
  keyId: number | null;
  sessionId: string | null;
  viewedAt: Date;
}

/**
 * Views are written with their rollups (db/schema/usage.ts) in one transaction, so a reader of
 * the rollups never sees a view the rollups miss, nor the other way round.
 *
 * Writers take one transaction-scoped advisory lock: a pair of skills loaded in one session is
 * counted when the second of the two loads is written, and two instances writing a session's two
 * loads at once would otherwise each miss the other's. Views are written in batches (one per
 * flush interval per instance), so this serializes little.
 */
const VIEW_ROLLUP_LOCK = 7_310_014;

export type UtcDay = string & { readonly __brand: "UtcDay" };

export function utcDay(at: Date): UtcDay {
  return at.toISOString().slice(0, 10) as UtcDay;
}

/** The UTC day `days` before the day of `now`. */
export function daysBefore(now: Date, days: number): UtcDay {
  return utcDay(new Date(now.getTime() - days * 86_400_000));
}

/**
 * The views of a batch, sent as one JSON parameter and read back by the server as rows: drizzle
 * builds a many-row insert with a parameter per value, and a batch of 500 views cost this server
 * 36 ms of CPU that way. Times go as epoch milliseconds, because turning 500 dates into text
 * costs more than the rest of the batch.
 */
function viewRows(views: readonly SkillView[]): string {
  return JSON.stringify(
    views.map((view) => ({
      teamId: view.teamId,
      skillName: view.skillName,
      source: view.source,
      version: view.version,
      keyId: view.keyId,
      sessionId: view.sessionId,
      at: view.viewedAt.getTime(),
    })),
  );
}

/**
 * One statement writes the views and every rollup they change, summed by the server: the sums
 * and the session pairs cost it less than building them here, and the server is the one that
 * has the loads a session already had. Statements in one WITH share one snapshot, so
 * `session_loads` read in `pairs` holds the loads from before this batch, and `firsts` the
 * loads this batch adds; a new load pairs with each earlier load of its session, and two new
 * loads pair once. A pair counts on the day of the later of its two loads.
 */
export async function writeViews(db: Db, views: SkillView[]): Promise<void> {
  if (views.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${VIEW_ROLLUP_LOCK})`);
    await tx.execute(sql`
      with viewed as (
        select "teamId" as team_id, "skillName" as skill_name, source, version, "keyId" as key_id, "sessionId" as session_id,
               to_timestamp(at / 1000.0) as viewed_at
        from json_to_recordset(${viewRows(views)}::json)
          as r("teamId" integer, "skillName" text, source text, version integer, "keyId" integer, "sessionId" text, at double precision)
      ),
      recorded as (
        insert into skill_views (team_id, skill_name, source, version, key_id, session_id, viewed_at)
        select team_id, skill_name, source, version, key_id, session_id, viewed_at from viewed
      ),
      firsts as (
        insert into session_loads (team_id, session_id, skill_name, first_viewed_at)
        select team_id, session_id, skill_name, min(viewed_at) from viewed
        where session_id is not null
        group by team_id, session_id, skill_name
        on conflict do nothing
        returning team_id, session_id, skill_name, first_viewed_at
      ),
      days as (
        insert into skill_view_days (team_id, skill_name, day, views, sessions)
        select team_id, skill_name, day, sum(views), sum(sessions)
        from (
          select team_id, skill_name, (viewed_at at time zone 'UTC')::date as day, 1 as views, 0 as sessions from viewed
          union all
          select team_id, skill_name, (first_viewed_at at time zone 'UTC')::date, 0, 1 from firsts
        ) counted
        group by team_id, skill_name, day
        on conflict (team_id, day, skill_name) do update
          set views = skill_view_days.views + excluded.views, sessions = skill_view_days.sessions + excluded.sessions
      ),
      totals as (
        insert into skill_view_totals (team_id, skill_name, source, version, views, last_viewed_at)
        select team_id, skill_name, source, version, count(*), max(viewed_at) from viewed
        group by team_id, skill_name, source, version
        on conflict (team_id, skill_name, source, version) do update
          set views = skill_view_totals.views + excluded.views,
              last_viewed_at = greatest(skill_view_totals.last_viewed_at, excluded.last_viewed_at)
      ),
      pairs as (
        insert into co_loaded_days (team_id, skill_a, skill_b, day, sessions)
        select load.team_id, least(load.skill_name, other.skill_name), greatest(load.skill_name, other.skill_name),
               (greatest(load.first_viewed_at, other.first_viewed_at) at time zone 'UTC')::date, count(*)
        from firsts load
        join (
          select team_id, session_id, skill_name, first_viewed_at, false as fresh from session_loads
          where (team_id, session_id) in (select team_id, session_id from firsts)
          union all
          select team_id, session_id, skill_name, first_viewed_at, true from firsts
        ) other on other.team_id = load.team_id and other.session_id = load.session_id
               and (not other.fresh or load.skill_name < other.skill_name)
        group by 1, 2, 3, 4
        on conflict (team_id, day, skill_a, skill_b) do update set sessions = co_loaded_days.sessions + excluded.sessions
      )
      select 1`);
  });
}
