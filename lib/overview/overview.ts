import { and, desc, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { servedLearnedVersion } from "@/db/queries/learned-skills";
import { evalRuns, learnedSkills, learnedSkillVersions } from "@/db/schema";
import type { ActivationMetrics } from "../activation/metrics";
import { lintDescription } from "../lint/lint";
import { collisionLabel, type Catalog } from "../skills/catalog";
import type { Team, TeamId } from "../teams/teams";
import { neverLoaded, usageBySkill, weeklyViewTrend } from "../usage/stats";
import type { UsageDeps } from "../usage/usage";
import { activationsBySkill, typedOnly, unlistedActivations, type Activations, type UnlistedActivations } from "../usage/activations";
import { successRates } from "../evolution/observations";
import { DEFAULT_QUERY, tablePage, type SkillHealthRow, type TablePage, type TableQuery } from "./table";

/** One row of the overview's skill health table. */

export interface TeamOverview {
  /** The page of the skill health table the query asked for. */
  table: TablePage;
  headline: {
    listed: number;
    drafts: number;
    collisions: number;
    lintFindings: number;
    neverLoaded: number;
    /** Skills people activate only by typing `/name` (§9.1). */
    typedOnly: number;
    viewsThisWeek: number;
    viewsLastWeek: number;
    /** Activation rate of the latest finished run and of the one before it. */
    activation: number | null;
    activationBefore: number | null;
    listingChars: number;
    listingCap: number;
    truncated: boolean;
  };
  /** Folders that break a hard rule (§2.1), with the version still served from an earlier sync. */
  invalid: InvalidFolderRow[];
  /** Collision and warning lines; invalid folders have their own list. */
  diagnostics: string[];
  /** Activations of custom skills whose names the agent hid, and of names the catalog does not hold (§9.1). */
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
  const [catalog, usage, activated, trend, listing, outcomes, tiers, runs] = await Promise.all([
    catalogs.catalog(team),
    usageBySkill(db, team.id, now),
    activationsBySkill(db, team.id, now),
    weeklyViewTrend(db, team.id, now),
    catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint }),
    successRates(db, team.id),
    currentTiers(db, team.id),
    latestRuns(db, team.id),
  ]);
  const recall = (runs[0]?.metrics.perSkill ?? {}) as Record<string, { recall: number | null }>;
  const rows = healthRows(catalog, usage, activated, team.descMax).map((row) => {
    const ran = row.status === "shadowed" ? undefined : outcomes.get(row.name);
    const learned = row.source === "learned" && row.status !== "shadowed";
    return {
      ...row,
      runs: ran?.runs ?? 0,
      successRate: ran?.rate ?? null,
      tier: learned ? (tiers.get(row.name) ?? null) : null,
      recall: row.status === "shadowed" ? null : (recall[row.name]?.recall ?? null),
    };
  });
  return {
    table: tablePage(rows, query),
    headline: {
      listed: catalog.active.length,
      drafts: catalog.drafts.length,
      collisions: catalog.diagnostics.length,
      lintFindings: rows.filter((row) => row.status !== "shadowed").reduce((sum, row) => sum + row.lint.length, 0),
      neverLoaded: rows.filter((row) => row.neverLoaded).length,
      typedOnly: rows.filter((row) => row.typedOnly).length,
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

function healthRows(
  catalog: Catalog,
  usage: Map<string, { views7d: number; views30d: number; lastViewedAt: Date | null }>,
  activated: Map<string, Activations>,
  descMax: number,
): Omit<SkillHealthRow, "runs" | "successRate" | "tier" | "recall">[] {
  const winners = new Map(catalog.active.map((skill) => [skill.name, skill]));
  const losers = new Map<string, string[]>();
  for (const skill of catalog.shadowed) losers.set(skill.name, [...(losers.get(skill.name) ?? []), collisionLabel(skill)]);
  return [...catalog.active, ...catalog.shadowed, ...catalog.drafts].map((skill) => {
    // Views are by name: a shadowed skill is never served, so its name's views are the winner's.
    const used = skill.status === "shadowed" ? undefined : usage.get(skill.name);
    const chosen = skill.status === "shadowed" ? undefined : activated.get(skill.name);
    const winner = winners.get(skill.name);
    const shadows = losers.get(skill.name);
    const collision =
      skill.status === "shadowed" && winner
        ? `shadowed by ${collisionLabel(winner)}`
        : skill.status === "active" && shadows
          ? `shadows ${shadows.join(", ")}`
          : null;
    return {
      name: skill.name,
      source: skill.source,
      scope: skill.scope,
      version: skill.version,
      status: skill.status,
      folder: skill.folder,
      lint: lintDescription(skill.description, descMax),
      views7d: used?.views7d ?? 0,
      views30d: used?.views30d ?? 0,
      lastViewedAt: used?.lastViewedAt?.toISOString() ?? null,
      collision,
      neverLoaded: neverLoaded(skill, usage, activated),
      proactive: chosen?.proactive ?? 0,
      typed: chosen?.slash ?? 0,
      typedOnly: typedOnly(chosen),
      provenance:
        skill.provenance && (skill.provenance.ref ? `${skill.provenance.source} · ${skill.provenance.ref}` : skill.provenance.source),
    };
  });
}

async function currentTiers(db: Db, teamId: TeamId): Promise<Map<string, string>> {
  const rows = await db
    .select({ name: learnedSkills.name, tier: learnedSkillVersions.tier })
    .from(learnedSkills)
    .innerJoin(learnedSkillVersions, servedLearnedVersion)
    .where(and(eq(learnedSkills.teamId, teamId), ne(learnedSkills.status, "archived")));
  return new Map(rows.map((row) => [row.name, row.tier]));
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
