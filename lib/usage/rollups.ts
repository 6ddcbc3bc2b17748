import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessionLoads } from "@/db/schema";
import type { SkillView } from "./view-recorder";

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

/** The entry of `map` under `key` (its parts joined as JSON), made by `create` the first time: how a batch is summed into rollup rows. */
export function entryOf<T>(map: Map<string, T>, key: readonly unknown[], create: () => T): T {
  const id = JSON.stringify(key);
  let entry = map.get(id);
  if (entry === undefined) map.set(id, (entry = create()));
  return entry;
}

/**
 * Rows sent as one JSON parameter and read back by the server, for the columns named (as the JSON
 * keys, with their types): drizzle builds a many-row insert with a parameter per value, and a flush
 * of 500 views cost this server 36 ms of CPU that way against 10 ms this way, and took 55 ms from
 * start to commit against 21 ms. Views are written on every `skill_view`, so this is the hot path.
 */
function recordset(rows: readonly object[], columns: string): SQL {
  return sql`select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.raw(columns)})`;
}

interface Load {
  teamId: number;
  sessionId: string;
  skillName: string;
  firstViewedAt: Date;
}

export async function writeViews(db: Db, views: SkillView[]): Promise<void> {
  if (views.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${VIEW_ROLLUP_LOCK})`);
    await tx.execute(sql`
      insert into skill_views (team_id, skill_name, source, version, key_id, session_id, viewed_at)
      ${recordset(views, `"teamId" integer, "skillName" text, source text, version integer, "keyId" integer, "sessionId" text, "viewedAt" timestamptz`)}`);
    const fresh = await insertFirstLoads(tx, views);
    await addViewDays(tx, views, fresh);
    await addViewTotals(tx, views);
    await addPairs(tx, fresh);
  });
}

/** The loads that are a session's first of their skill; returns those not already recorded. */
async function insertFirstLoads(tx: Db, views: SkillView[]): Promise<Load[]> {
  const firsts = new Map<string, Load>();
  for (const view of views) {
    if (!view.sessionId) continue;
    const key = JSON.stringify([view.teamId, view.sessionId, view.skillName]);
    const seen = firsts.get(key);
    if (!seen || view.viewedAt < seen.firstViewedAt) {
      firsts.set(key, { teamId: view.teamId, sessionId: view.sessionId, skillName: view.skillName, firstViewedAt: view.viewedAt });
    }
  }
  if (firsts.size === 0) return [];
  return tx
    .insert(sessionLoads)
    .values([...firsts.values()])
    .onConflictDoNothing()
    .returning();
}

async function addViewDays(tx: Db, views: SkillView[], fresh: Load[]): Promise<void> {
  const rows = new Map<string, { teamId: number; skillName: string; day: UtcDay; views: number; sessions: number }>();
  const row = (teamId: number, skillName: string, day: UtcDay) =>
    entryOf(rows, [teamId, skillName, day], () => ({ teamId, skillName, day, views: 0, sessions: 0 }));
  for (const view of views) row(view.teamId, view.skillName, utcDay(view.viewedAt)).views += 1;
  for (const load of fresh) row(load.teamId, load.skillName, utcDay(load.firstViewedAt)).sessions += 1;
  await tx.execute(sql`
    insert into skill_view_days (team_id, skill_name, day, views, sessions)
    ${recordset([...rows.values()], `"teamId" integer, "skillName" text, day date, views integer, sessions integer`)}
    on conflict (team_id, day, skill_name) do update
      set views = skill_view_days.views + excluded.views, sessions = skill_view_days.sessions + excluded.sessions`);
}

async function addViewTotals(tx: Db, views: SkillView[]): Promise<void> {
  const rows = new Map<string, { teamId: number; skillName: string; source: string; version: number; views: number; lastViewedAt: Date }>();
  for (const { teamId, skillName, source, version, viewedAt } of views) {
    const total = entryOf(rows, [teamId, skillName, source, version], () => ({
      teamId,
      skillName,
      source,
      version,
      views: 0,
      lastViewedAt: viewedAt,
    }));
    total.views += 1;
    if (viewedAt > total.lastViewedAt) total.lastViewedAt = viewedAt;
  }
  await tx.execute(sql`
    insert into skill_view_totals (team_id, skill_name, source, version, views, last_viewed_at)
    ${recordset([...rows.values()], `"teamId" integer, "skillName" text, source text, version integer, views integer, "lastViewedAt" timestamptz`)}
    on conflict (team_id, skill_name, source, version) do update
      set views = skill_view_totals.views + excluded.views,
          last_viewed_at = greatest(skill_view_totals.last_viewed_at, excluded.last_viewed_at)`);
}

/**
 * Each new first load pairs with every load its session already had, and with the other new
 * loads of its session once; the pair counts on the day of the later of the two loads.
 */
async function addPairs(tx: Db, fresh: Load[]): Promise<void> {
  if (fresh.length === 0) return;
  const sessionsByTeam = new Map<number, Set<string>>();
  for (const load of fresh) sessionsByTeam.set(load.teamId, (sessionsByTeam.get(load.teamId) ?? new Set()).add(load.sessionId));
  const isFresh = new Set(fresh.map((load) => JSON.stringify([load.teamId, load.sessionId, load.skillName])));
  const pairs = new Map<string, { teamId: number; skillA: string; skillB: string; day: UtcDay; sessions: number }>();
  for (const [teamId, sessions] of sessionsByTeam) {
    const loads = await tx
      .select()
      .from(sessionLoads)
      .where(and(eq(sessionLoads.teamId, teamId), inArray(sessionLoads.sessionId, [...sessions])));
    const bySession = new Map<string, { newOnes: Load[]; oldOnes: Load[] }>();
    for (const load of loads) {
      const session = entryOf(bySession, [load.sessionId], () => ({ newOnes: [], oldOnes: [] }));
      (isFresh.has(JSON.stringify([teamId, load.sessionId, load.skillName])) ? session.newOnes : session.oldOnes).push(load);
    }
    for (const { newOnes, oldOnes } of bySession.values()) {
      newOnes.forEach((load, i) => {
        for (const other of [...oldOnes, ...newOnes.slice(i + 1)]) {
          const [skillA, skillB] = load.skillName < other.skillName ? [load.skillName, other.skillName] : [other.skillName, load.skillName];
          const day = utcDay(load.firstViewedAt > other.firstViewedAt ? load.firstViewedAt : other.firstViewedAt);
          entryOf(pairs, [teamId, skillA, skillB, day], () => ({ teamId, skillA, skillB, day, sessions: 0 })).sessions += 1;
        }
      });
    }
  }
  if (pairs.size === 0) return;
  await tx.execute(sql`
    insert into co_loaded_days (team_id, skill_a, skill_b, day, sessions)
    ${recordset([...pairs.values()], `"teamId" integer, "skillA" text, "skillB" text, day date, sessions integer`)}
    on conflict (team_id, day, skill_a, skill_b) do update set sessions = co_loaded_days.sessions + excluded.sessions`);
}
