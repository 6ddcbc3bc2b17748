import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { daysBefore, type UtcDay } from "./rollups";
import { neverLoaded, usageBySkill } from "./stats";
import { costly, loadedThenFailing, NO_PRODUCTION, sumProduction, teamProduction, type Production } from "./production";
import {
  activationsBySkill,
  per100Prompts,
  promptsInWindow,
  totalActivations,
  typedOnly,
  unlistedActivations,
  type Activations,
} from "./activations";

/**
 * Real usage (§9), from views: what agents actually load, computed in SQL. Eval runs never write
 * views, so they never count here.
 */

export interface SkillUsageRow {
  name: string;
  views7d: number;
  views30d: number;
  lastViewedAt: string | null;
  /** Agent sessions whose first load of it fell in the last 30 days. */
  sessions: number;
  activations: Activations;
  people: number;
  typedOnly: boolean;
  proactivePer100Prompts: number | null;
  /** What the agents did while it was loaded, 30 days (./production.ts). */
  production: Production;
  /** Tools fail more often while it is loaded than in prompts with no skill, beyond both intervals. */
  loadedThenFailing: boolean;
  /** Its prompts cost at least twice what prompts with no skill cost. */
  costly: boolean;
}

export interface CoLoadedPair {
  a: string;
  b: string;
  /** Sessions that loaded both, counted on the day the later of the two was first loaded (last 30 days). */
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
  const [usage, activated, prompts, pairs, catalog, produced] = await Promise.all([
    usageBySkill(db, team.id, now),
    activationsBySkill(db, team.id, now),
    promptsInWindow(db, team.id, now),
    coLoaded(db, team.id, daysBefore(now, 29)),
    catalogs.catalog(team),
    teamProduction(db, team.id, daysBefore(now, 29)),
  ]);
  // Views are of skills the catalog serves; activations and production are of whatever the agents loaded.
  const held = (name: string) => catalog.named.has(name);
  const names = new Set([...usage.keys(), ...[...activated.keys(), ...produced.bySkill.keys()].filter(held)]);
  const skills: SkillUsageRow[] = [...names]
    .map((name) => {
      const viewed = usage.get(name);
      const { people = 0, ...activations } = activated.get(name) ?? { proactive: 0, slash: 0, nested: 0 };
      const production = produced.bySkill.get(name) ?? NO_PRODUCTION;
      return {
        name,
        views7d: viewed?.views7d ?? 0,
        views30d: viewed?.views30d ?? 0,
        lastViewedAt: viewed?.lastViewedAt?.toISOString() ?? null,
        sessions: viewed?.sessions ?? 0,
        activations,
        people,
        typedOnly: typedOnly(activations),
        proactivePer100Prompts: per100Prompts(activations.proactive, prompts),
        production,
        loadedThenFailing: loadedThenFailing(production, produced.noSkill),
        costly: costly(production, produced.noSkill),
      };
    })
    .sort((x, y) => loads(y) - loads(x) || (x.name < y.name ? -1 : 1));
  const unloaded = catalog.active.filter((skill) => neverLoaded(skill, usage, activated)).map((skill) => skill.name as string);
  return {
    skills,
    neverLoaded: unloaded,
    coLoaded: pairs,
    ...unlistedActivations(activated, catalog),
    prompts,
    // The parts add up to the total: the skills above, names outside the catalog, what ran before a
    // skill was loaded, and prompts with none (docs/telemetry.md, "Figures reconcile").
    production: {
      total: produced.total,
      noSkill: produced.noSkill,
      beforeSkill: produced.beforeSkill,
      outsideRegistry: sumProduction([...produced.bySkill].filter(([name]) => !held(name)).map(([, figures]) => figures)),
    },
  };
}

/** Views and activations in 30 days: how much a skill is used, for ordering. */
function loads(row: SkillUsageRow): number {
  return row.views30d + totalActivations(row.activations);
}

/**
 * Pairs of skills loaded in the same sessions, from the pair rollup: `share` divides by the
 * sessions of the rarer skill in the same window (capped at 1, since a pair counts on the day of
 * its later load and a skill's session on the day of its first).
 */
async function coLoaded(db: Db, teamId: number, since: UtcDay): Promise<CoLoadedPair[]> {
  const result = await db.execute(sql`
    with pairs as (
      select skill_a as a, skill_b as b, sum(sessions)::int as sessions from co_loaded_days
      where team_id = ${teamId} and day >= ${since}
      group by skill_a, skill_b
      having sum(sessions) >= 2
    ),
    per_skill as (
      select skill_name, sum(sessions) as sessions from skill_view_days
      where team_id = ${teamId} and day >= ${since}
      group by skill_name
    )
    select pairs.a, pairs.b, pairs.sessions,
           least(1, pairs.sessions::float / greatest(1, least(pa.sessions, pb.sessions))) as share
    from pairs
    join per_skill pa on pa.skill_name = pairs.a
    join per_skill pb on pb.skill_name = pairs.b
    order by sessions desc, share desc, a, b
    limit 50`);
  const rows = (result as unknown as { rows: { a: string; b: string; sessions: number; share: number }[] }).rows;
  return rows.map((row) => ({ a: row.a, b: row.b, sessions: Number(row.sessions), share: Number(row.share) }));
}
