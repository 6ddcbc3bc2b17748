import type { Db } from "@/db/client";
import { lintDescription } from "../lint/lint";
import { collisionLabel, type Catalog } from "../skills/catalog";
import type { CatalogCache } from "../skills/catalog-cache";
import type { Team } from "../teams/teams";
import { usageBySkill, weeklyViewTrend } from "../usage/stats";
import { successRates } from "../evolution/observations";

/** One row of the overview's skill health table. */
export interface SkillHealthRow {
  name: string;
  source: string;
  scope: string;
  version: number;
  status: string;
  folder: string | null;
  lint: string[];
  views7d: number;
  views30d: number;
  lastViewedAt: string | null;
  /** "shadowed by builtin", "shadows file skills/x" */
  collision: string | null;
  neverLoaded: boolean;
  /** For learned skills: where it came from, e.g. "agent · session 7f3a". */
  provenance: string | null;
  /** Recorded runs and the share that succeeded (null with none). */
  runs: number;
  successRate: number | null;
}

export interface TeamOverview {
  rows: SkillHealthRow[];
  headline: {
    listed: number;
    drafts: number;
    collisions: number;
    lintFindings: number;
    neverLoaded: number;
    viewsThisWeek: number;
    viewsLastWeek: number;
    listingChars: number;
    listingCap: number;
    truncated: boolean;
  };
  diagnostics: string[];
}

export async function teamOverview(db: Db, catalogs: CatalogCache, team: Team, now = new Date()): Promise<TeamOverview> {
  const [catalog, usage, trend, listing, outcomes] = await Promise.all([
    catalogs.catalog(team),
    usageBySkill(db, team.id, now),
    weeklyViewTrend(db, team.id, now),
    catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint }),
    successRates(db, team.id),
  ]);
  const rows = healthRows(catalog, usage, team.descMax).map((row) => {
    const ran = row.status === "shadowed" ? undefined : outcomes.get(row.name);
    return { ...row, runs: ran?.runs ?? 0, successRate: ran?.rate ?? null };
  });
  return {
    rows,
    headline: {
      listed: catalog.active.length,
      drafts: catalog.drafts.length,
      collisions: catalog.diagnostics.length,
      lintFindings: rows.filter((row) => row.status !== "shadowed").reduce((sum, row) => sum + row.lint.length, 0),
      neverLoaded: rows.filter((row) => row.neverLoaded).length,
      viewsThisWeek: trend.thisWeek,
      viewsLastWeek: trend.lastWeek,
      listingChars: listing.figures.chars,
      listingCap: listing.figures.cap,
      truncated: listing.truncated,
    },
    diagnostics: [...catalog.diagnostics, ...catalog.warnings],
  };
}

function healthRows(
  catalog: Catalog,
  usage: Map<string, { views7d: number; views30d: number; lastViewedAt: Date | null }>,
  descMax: number,
): Omit<SkillHealthRow, "runs" | "successRate">[] {
  const winners = new Map(catalog.active.map((skill) => [skill.name, skill]));
  const losers = new Map<string, string[]>();
  for (const skill of catalog.shadowed) losers.set(skill.name, [...(losers.get(skill.name) ?? []), collisionLabel(skill)]);
  return [...catalog.active, ...catalog.shadowed, ...catalog.drafts].map((skill) => {
    // Views are by name: a shadowed skill is never served, so its name's views are the winner's.
    const used = skill.status === "shadowed" ? undefined : usage.get(skill.name);
    const winner = winners.get(skill.name);
    const collision =
      skill.status === "shadowed" && winner
        ? `shadowed by ${collisionLabel(winner)}`
        : skill.status === "active" && losers.has(skill.name)
          ? `shadows ${losers.get(skill.name)!.join(", ")}`
          : null;
    return {
      name: skill.name,
      source: skill.source,
      scope: skill.scope,
      version: skill.version,
      status: skill.status,
      folder: skill.folder,
      lint: lintDescription(skill.description, descMax).map((finding) => finding.rule),
      views7d: used?.views7d ?? 0,
      views30d: used?.views30d ?? 0,
      lastViewedAt: used?.lastViewedAt?.toISOString() ?? null,
      collision,
      neverLoaded: skill.status === "active" && !used,
      provenance: skill.provenance && (skill.provenance.ref ? `${skill.provenance.source} · ${skill.provenance.ref}` : skill.provenance.source),
    };
  });
}
