import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
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
 * Real usage (docs/evaluation-and-activation.md#real-usage), from views: what agents actually load, computed in SQL. Eval runs never write
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
  /** Flushed first, so a view this instance acknowledged is counted (read-your-writes; docs/decisions/view-buffer.md). */
  views: { flush(): Promise<void> };
}

export async function usageReport({ db, catalogs, views }: UsageDeps, team: CatalogKey, now = new Date()) {
  await views.flush();
  const [usage, activated, prompts, pairs, catalog, produced] = await Promise.all([
    usageBySkill(db, team.id, now),
    activationsBySkill(db, team.id, now),
    promptsInWindow(db, team.id, now),
    coLoadedPairs(db, team.id, daysBefore(now, 29)),
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
    coLoaded: pairs.pairs,
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

/** One page of the co-loaded pairs, with how many pairs there are and how many of them are merge candidates. */
export interface CoLoadedPage {
  pairs: CoLoadedPair[];
  total: number;
  /** Pairs loaded together in at least MERGE_SHARE of the rarer skill's sessions. */
  candidates: number;
  /** The page the rows are, kept within the pages there are. */
  page: number;
}

/** A pair loaded together this often is a candidate to merge. */
export const MERGE_SHARE = 0.8;

/**
 * Pairs of skills loaded in the same sessions, from the pair rollup, most sessions first, a page
 * of `size` at a time (a page past the last is the last): `share` divides by the sessions of the
 * rarer skill in the same window (capped at 1, since a pair counts on the day of its later load
 * and a skill's session on the day of its first).
 */
export async function coLoadedPairs(db: Db, teamId: number, since: UtcDay, page = 1, size = 50): Promise<CoLoadedPage> {
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
    ),
    shared as (
      select pairs.a, pairs.b, pairs.sessions,
             least(1, pairs.sessions::float / greatest(1, least(pa.sessions, pb.sessions))) as share
      from pairs
      join per_skill pa on pa.skill_name = pairs.a
      join per_skill pb on pb.skill_name = pairs.b
    ),
    numbered as (select shared.*, row_number() over (order by sessions desc, share desc, a, b) as n from shared),
    counted as (
      select count(*)::int as total, (count(*) filter (where share >= ${MERGE_SHARE}))::int as candidates,
             (least(${page}::int, greatest(1, ceil(count(*)::numeric / ${size}::int)::int)) - 1) * ${size}::int as skip
      from shared
    )
    select counted.total, counted.candidates, counted.skip, numbered.a, numbered.b, numbered.sessions, numbered.share
    from counted left join numbered on numbered.n > counted.skip and numbered.n <= counted.skip + ${size}::int
    order by numbered.n`);
  const rows = rowsOf<{ total: number; candidates: number; skip: number; a: string | null; b: string; sessions: number; share: number }>(
    result,
  );
  const head = rows[0];
  return {
    pairs: rows.flatMap((row) =>
      row.a === null ? [] : [{ a: row.a, b: row.b, sessions: Number(row.sessions), share: Number(row.share) }],
    ),
    total: Number(head?.total ?? 0),
    candidates: Number(head?.candidates ?? 0),
    page: Number(head?.skip ?? 0) / size + 1,
  };
}
