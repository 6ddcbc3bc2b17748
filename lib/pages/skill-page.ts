import { and, eq, like, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { learnedSkills } from "@/db/schema";
import { listAmendments } from "../evolution/amendments";
import { listObservations, type ObservationFilter } from "../evolution/observations";
import { lintDescription, type LintFinding } from "../lint/lint";
import { skillVersions, versionText, type VersionInfo } from "../learned/history";
import { sideBySide, type DiffRow } from "../learned/side-by-side";
import { findLiveLearned, type LearnedRow } from "../learned/store";
import type { Team } from "../teams/teams";
import { collisionLabel, latestVersionOf, servedOf, type Served } from "../skills/catalog";
import { pinRecord, type PinRecord } from "../learned/served";
import type { CatalogCache } from "../skills/catalog-cache";
import { listSkillFiles, type SkillFile } from "../skills/files";
import { noEvidence, versionEvidence, type VersionEvidence } from "../skills/version-evidence";
import { annotationLine, loadSkillContent, type SkillContent } from "../skills/view";
import { skillInProduction, type SkillInProduction } from "./production";

/** What agents get of a skill, and why, in one place (docs/learned-skills.md#one-served-version): the skill page's first line. */
export interface AgentsGet {
  /** What a reader that asks for no label gets. */
  served: Served;
  /** Who pinned it there, when and why, while a lead's pin holds. */
  pin: PinRecord | null;
  /** The skill's labels and the versions they mark, by label name. */
  labels: { label: string; version: number }[];
  latest: number;
}

export interface SkillDetail {
  content: SkillContent;
  agents: AgentsGet;
  annotation: string;
  files: SkillFile[];
  lint: LintFinding[];
  /** The learned skill's own record (provenance, lineage), when the served skill is learned. */
  learned: LearnedRow | null;
  versions: VersionInfo[];
  /** Views, recorded runs and activation recall of each version, oldest first. */
  evidence: VersionEvidence[];
  compare: { from: number; to: number; rows: DiffRow[] } | null;
  /** Other skills of this name that precedence hides: `file skills/x`, `learned`. */
  shadowed: string[];
  /** Learned skills of this team forked from this one. */
  forks: { name: string; forkedFrom: string }[];
  observations: Awaited<ReturnType<typeof listObservations>>;
  amendments: Awaited<ReturnType<typeof listAmendments>>;
  /** Activations the agents' telemetry reported (docs/telemetry.md#activations), by day and by version. */
  production: SkillInProduction;
}

/** Everything the skill page shows (docs/dashboard.md#skill-page). Reading it is not agent usage: no view is recorded. */
export async function skillDetail(
  db: Db,
  catalogs: CatalogCache,
  team: Team,
  name: string,
  wanted: { from?: number; to?: number } = {},
  observed: ObservationFilter = {},
): Promise<SkillDetail> {
  const content = await loadSkillContent(db, catalogs, team, name);
  const [files, [versions, production], catalog, learned, forks, observations, amendments, evidence] = await Promise.all([
    listSkillFiles(catalogs, team, name),
    // Production is read per version, so it follows the versions rather than waiting for everything.
    skillVersions(db, catalogs, team, name).then(
      async (versions) => [versions, await skillInProduction(db, team.id, name, versions)] as const,
    ),
    catalogs.catalog(team),
    content.skill.scope === "learned" ? findLiveLearned(db, team.id, name) : Promise.resolve(null),
    db
      .select({ name: learnedSkills.name, forkedFrom: learnedSkills.forkedFrom })
      .from(learnedSkills)
      .where(
        and(
          eq(learnedSkills.teamId, team.id),
          ne(learnedSkills.status, "archived"),
          like(learnedSkills.forkedFrom, `${team.slug}/${name}@v%`),
        ),
      ),
    listObservations(db, team.id, name, { limit: 50, ...observed }),
    listAmendments({ db, catalogs }, team, { skill: name, limit: 100 }),
    versionEvidence(db, team.id, content.skill),
  ]);
  const served = servedOf(content.skill);
  return {
    content,
    agents: {
      served,
      pin: served.why === "pinned" ? await pinRecord(db, team.id, name, served.version) : null,
      labels: versions
        .flatMap((v) => v.labels.map((label) => ({ label, version: v.version })))
        .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
      latest: latestVersionOf(content.skill),
    },
    annotation: annotationLine(content),
    files,
    lint: lintDescription(content.skill.description, team.descMax),
    learned,
    versions,
    evidence: versions.map((v) => evidence.get(v.version) ?? noEvidence(v.version)),
    compare: await comparison(db, catalogs, team, name, latestVersionOf(content.skill), wanted),
    shadowed: catalog.shadowed.filter((skill) => skill.name === name).map(collisionLabel),
    forks: forks.flatMap((fork) => (fork.forkedFrom === null ? [] : [{ name: fork.name, forkedFrom: fork.forkedFrom }])),
    observations,
    amendments,
    production,
  };
}

/** The versions to compare: as asked, else the current one against its predecessor. */
async function comparison(
  db: Db,
  catalogs: CatalogCache,
  team: Team,
  name: string,
  current: number,
  wanted: { from?: number; to?: number },
) {
  const to = wanted.to && wanted.to <= current ? wanted.to : current;
  const from = wanted.from && wanted.from <= current ? wanted.from : to - 1;
  if (from < 1 || from === to) return null;
  const [a, b] = await Promise.all([versionText(db, catalogs, team, name, from), versionText(db, catalogs, team, name, to)]);
  return { from, to, rows: sideBySide(a, b) };
}
