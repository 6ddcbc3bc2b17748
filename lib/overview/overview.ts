import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { learnedVersionsIn } from "@/db/queries/learned-skills";
import { evalRuns, learnedSkillVersions } from "@/db/schema";
import { learnedIdOf, type Catalog } from "../skills/catalog";
import type { ActivationMetrics } from "../activation/metrics";
import type { Team, TeamId } from "../teams/teams";
import { lastViewedBySkill, neverLoaded, weeklyViewTrend } from "../usage/stats";
import { dailyViews, viewsInLast, viewsPerSkill } from "../usage/view-days";
import type { UsageDeps } from "../usage/usage";
import { activationsBySkill, typedOnly, unlistedActivations, type Activations, type UnlistedActivations } from "../usage/activations";
import { costly, loadedThenFailing, NO_PRODUCTION, teamProduction, type TeamProduction } from "../usage/production";
import { daysBefore } from "../usage/rollups";
import { successRates } from "../evolution/observations";
import { catalogRows } from "./catalog-rows";
import { DEFAULT_QUERY, tablePage, type CatalogRow, type RowReader, type SkillHealthRow, type TablePage, type TableQuery } from "./table";

export interface TeamOverview {
  /** The page of the skill health table the query asked for. */
  table: TablePage;
  headline: {
    listed: number;
    drafts: number;
    collisions: number;
    lintFindings: number;
    neverLoaded: number;
    /** Skills people activate only by typing `/name` (docs/telemetry.md#activations). */
    typedOnly: number;
    /** Skills whose tools fail more often while loaded than with no skill, and skills whose prompts cost twice as much (30 days). */
    loadedThenFailing: number;
    costly: number;
    viewsThisWeek: number;
    viewsLastWeek: number;
    /** Activation rate of the latest finished run and of the one before it. */
    activation: number | null;
    activationBefore: number | null;
    listingChars: number;
    listingCap: number;
    truncated: boolean;
  };
  /** Folders that break a hard rule (docs/skills-and-listing.md#validation), with the version still served from an earlier sync. */
  invalid: InvalidFolderRow[];
  /** Collision and warning lines; invalid folders have their own list. */
  diagnostics: string[];
  /** Activations of custom skills whose names the agent hid, and of names the catalog does not hold (docs/telemetry.md#activations). */
  unlisted: UnlistedActivations;
}

export interface InvalidFolderRow {
  folder: string;
  errors: string[];
  /** The last valid version, which keeps serving until the folder is fixed; null when none. */
  serving: number | null;
}

export async function teamOverview(
  { db, catalogs, views }: UsageDeps,
  team: Team,
  query: TableQuery = DEFAULT_QUERY,
  now = new Date(),
): Promise<TeamOverview> {
  await views.flush();
  const byViews = query.sort === "views7d" ? 7 : query.sort === "views30d" ? 30 : null;
  const [catalog, labels, lastViewed, sums, activated, trend, listing, outcomes, tiers, runs, produced] = await Promise.all([
    catalogs.catalog(team),
    catalogs.labels(team),
    lastViewedBySkill(db, team.id),
    // Summing every skill's views is needed only to sort by them; the page's own rows read their days.
    byViews ? viewsPerSkill(db, team.id, byViews, now) : null,
    activationsBySkill(db, team.id, now),
    weeklyViewTrend(db, team.id, now),
    catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint }),
    successRates(db, team.id),
    catalogs.catalog(team).then((catalog) => servedTiers(db, catalog)),
    latestRuns(db, team.id),
    // The same 30 days as GET /api/v1/usage, so its flags and the table's agree.
    teamProduction(db, team.id, daysBefore(now, 29)),
  ]);
  const rows = catalogRows(catalog, team.descMax, labels);
  const recall = (runs[0]?.metrics.perSkill ?? {}) as Record<string, { recall: number | null }>;
  const facts = rowFacts({ lastViewed, sums, activated, outcomes, tiers, recall, produced });
  const page = tablePage(rows, query, facts);
  const days = await dailyViews(db, team.id, [...new Set(page.rows.map((row) => row.name))], now);
  const served = rows.filter((row) => row.status !== "shadowed");
  return {
    table: { ...page, rows: page.rows.map((row) => facts.complete(row, days.get(row.name) ?? [])) },
    headline: {
      listed: catalog.active.length,
      drafts: catalog.drafts.length,
      collisions: catalog.diagnostics.length,
      lintFindings: served.reduce((sum, row) => sum + row.lint.length, 0),
      neverLoaded: rows.filter((row) => facts.neverLoaded(row)).length,
      typedOnly: rows.filter((row) => facts.typedOnly(row)).length,
      loadedThenFailing: rows.filter((row) => facts.loadedThenFailing(row)).length,
      costly: rows.filter((row) => facts.costly(row)).length,
      viewsThisWeek: trend.thisWeek,
      viewsLastWeek: trend.lastWeek,
      activation: runs[0]?.metrics.activationRate ?? null,
      activationBefore: runs[1]?.metrics.activationRate ?? null,
      listingChars: listing.figures.chars,
      listingCap: listing.figures.cap,
      truncated: listing.truncated,
    },
    invalid: catalog.invalid.map((folder) => ({
      folder: folder.folder,
      errors: folder.errors,
      serving:
        [...catalog.active, ...catalog.shadowed].find((skill) => skill.scope === folder.scope && skill.name === folder.name)?.version ??
        null,
    })),
    diagnostics: [...catalog.diagnostics, ...catalog.warnings.filter((line) => !line.startsWith("[invalid]"))],
    unlisted: unlistedActivations(activated, catalog),
  };
}

interface Lookups {
  lastViewed: Map<string, Date>;
  /** Views of every skill in the days the table sorts by (7 or 30): read only when it sorts by views. */
  sums: Map<string, number> | null;
  activated: Map<string, Activations>;
  outcomes: Map<string, { runs: number; rate: number | null }>;
  tiers: Map<string, string>;
  recall: Record<string, { recall: number | null }>;
  produced: TeamProduction;
}

/**
 * A row's usage, outcomes and recall, looked up by name as filters and sorts ask. Usage is by name:
 * a shadowed skill is never served, so its name's views, runs and recall are the winner's.
 */
function rowFacts({ lastViewed, sums, activated, outcomes, tiers, recall, produced }: Lookups) {
  const served = (row: CatalogRow) => row.status !== "shadowed";
  const never = (row: CatalogRow) => neverLoaded(row, lastViewed, activated);
  const onlyTyped = (row: CatalogRow) => served(row) && typedOnly(activated.get(row.name));
  const production = (row: CatalogRow) => produced.bySkill.get(row.name) ?? NO_PRODUCTION;
  const failing = (row: CatalogRow) => served(row) && loadedThenFailing(production(row), produced.noSkill);
  const dear = (row: CatalogRow) => served(row) && costly(production(row), produced.noSkill);
  const value = (row: CatalogRow, key: Parameters<RowReader["value"]>[1]): string | number => {
    if (!served(row)) return key === "lastViewedAt" ? "" : key === "successRate" || key === "recall" ? -1 : 0;
    if (key === "views7d" || key === "views30d") return sums?.get(row.name) ?? 0;
    if (key === "proactive") return activated.get(row.name)?.proactive ?? 0;
    if (key === "typed") return activated.get(row.name)?.slash ?? 0;
    if (key === "lastViewedAt") return lastViewed.get(row.name)?.toISOString() ?? "";
    if (key === "successRate") return outcomes.get(row.name)?.rate ?? -1;
    return recall[row.name]?.recall ?? -1;
  };
  return {
    value,
    neverLoaded: never,
    typedOnly: onlyTyped,
    loadedThenFailing: failing,
    costly: dear,
    /** The whole row of a skill the page shows, with its views by day. */
    complete(row: CatalogRow, days: number[]): SkillHealthRow {
      const used = served(row);
      const ran = used ? outcomes.get(row.name) : undefined;
      const chosen = used ? activated.get(row.name) : undefined;
      const daily = used ? days : Array<number>(days.length).fill(0);
      return {
        ...row,
        views7d: viewsInLast(daily, 7),
        views30d: viewsInLast(daily, daily.length),
        dailyViews: daily,
        lastViewedAt: used ? (lastViewed.get(row.name)?.toISOString() ?? null) : null,
        neverLoaded: never(row),
        proactive: chosen?.proactive ?? 0,
        typed: chosen?.slash ?? 0,
        typedOnly: onlyTyped(row),
        loadedThenFailing: failing(row),
        costly: dear(row),
        runs: ran?.runs ?? 0,
        successRate: ran?.rate ?? null,
        tier: used && row.source === "learned" ? (tiers.get(row.name) ?? null) : null,
        recall: used ? (recall[row.name]?.recall ?? null) : null,
      };
    },
  } satisfies RowReader & Record<string, unknown>;
}

/** The tier of the version each learned skill serves (the catalog decides which: pinned, else latest), by name. */
async function servedTiers(db: Db, catalog: Catalog): Promise<Map<string, string>> {
  const learned = [...catalog.active, ...catalog.shadowed, ...catalog.drafts].filter((skill) => skill.scope === "learned");
  if (learned.length === 0) return new Map();
  const rows = await db
    .select({ skillId: learnedSkillVersions.skillId, tier: learnedSkillVersions.tier })
    .from(learnedSkillVersions)
    .where(learnedVersionsIn(learned.map((skill) => ({ id: learnedIdOf(skill), version: skill.version }))));
  const nameOf = new Map(learned.map((skill) => [learnedIdOf(skill), skill.name as string]));
  return new Map(
    rows.flatMap((row) => {
      const name = nameOf.get(row.skillId);
      return name === undefined ? [] : [[name, row.tier] as const];
    }),
  );
}

/** The two most recent finished activation runs, newest first. */
async function latestRuns(db: Db, teamId: TeamId) {
  const rows = await db
    .select({ metrics: evalRuns.metrics })
    .from(evalRuns)
    .where(and(eq(evalRuns.teamId, teamId), eq(evalRuns.status, "finished")))
    .orderBy(desc(evalRuns.id))
    .limit(2);
  return rows.map((row) => ({ metrics: row.metrics as unknown as ActivationMetrics }));
}
