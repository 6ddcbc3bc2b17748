import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { learnedSkillVersions, workspaceSkillVersions } from "@/db/schema";
import { AppError, skillNotFound, specError } from "../errors";
import type { TeamId } from "../teams/teams";
import type { CatalogCache, CatalogKey, VersionContent } from "./catalog-cache";
import { latestVersionOf, learnedIdOf, servedOf, type Catalog, type CatalogSkill, type Served } from "./catalog";
import type { SkillView } from "../usage/rollups";

/** What `skill_view` serves: one exact version of one skill (docs/skills-and-listing.md#skill_view). */
export interface SkillContent {
  name: string;
  /** The annotation's source: `draft` for a learned draft. */
  annotationSource: "builtin" | "file" | "learned" | "draft";
  skill: CatalogSkill;
  version: number;
  frontmatter: string;
  body: string;
  /** SHA-256 of the whole SKILL.md of this version: the response's ETag. */
  sha256: string;
  /** Why this version (docs/learned-skills.md#one-served-version): the reader's label, a pin, the latest — or the version the reader asked for. */
  served: Served | { version: number; why: "requested" };
}

export function annotationLine(content: SkillContent): string {
  const parts = [`skill ${content.name}`, content.annotationSource, `v${content.version}`];
  if (content.skill.folder) parts.push(content.skill.folder);
  return `[${parts.join(" | ")}]`;
}

/** The source and version an annotation line names, or null for a text that does not start with one. */
export function parseAnnotationLine(text: string): { source: string; version: number } | null {
  const match = /^\[skill [^ |]+ \| ([^ |]+) \| v(\d+)(?: \| [^\]]*)?\]\n/.exec(text);
  const [, source, version] = match ?? [];
  return source && version ? { source, version: Number(version) } : null;
}

/** The `skill_view` text: the annotation line, a newline, then the body byte for byte. */
export function skillViewText(content: SkillContent): string {
  return `${annotationLine(content)}\n${content.body}`;
}

/** Why the version was served, as the headers of `skill_view` say it beside its text. */
export function servedHeaders(content: SkillContent): Record<string, string> {
  const { served } = content;
  return { "x-skill-served-why": served.why, ...("label" in served && served.label && { "x-skill-label": served.label }) };
}

/** Active skills by precedence, then the team's drafts (docs/skills-and-listing.md#skill_view). */
export async function resolveSkill(catalogs: CatalogCache, team: CatalogKey, name: string): Promise<CatalogSkill> {
  return skillIn(await catalogs.catalog(team), name);
}

/** The catalog's skill of that name, or SkillNotFound. */
function skillIn(catalog: Catalog, name: string): CatalogSkill {
  const skill = catalog.named.get(name);
  if (!skill) throw skillNotFound(name);
  return skill;
}

export async function loadSkillContent(
  db: Db,
  catalogs: CatalogCache,
  team: CatalogKey,
  name: string,
  requestedVersion?: number,
): Promise<SkillContent> {
  // Not through resolveSkill: an async function more is two promises more on every skill_view (docs/hot-path.md).
  const skill = skillIn(await catalogs.catalog(team), name);
  const version = requestedVersion ?? skill.version;
  const latest = latestVersionOf(skill);
  if (version > latest) throw noSuchVersion(name, version, latest);
  // A version in memory is not awaited: a warm skill_view waits on one promise here, the catalog's (docs/hot-path.md).
  const kept = storedContent(db, catalogs, team.id, skill, version);
  const stored = kept instanceof Promise ? await kept : kept;
  if (!stored) throw noSuchVersion(name, version, latest);
  return {
    name,
    annotationSource: skill.status === "draft" ? "draft" : skill.source,
    skill,
    version,
    ...stored,
    served: requestedVersion === undefined ? servedOf(skill) : { version, why: "requested" },
  };
}

function noSuchVersion(name: string, version: number, current: number): AppError {
  return specError("VersionNotFound", `'${name}' has no v${version}; it is at v${current}`);
}

function storedContent(
  db: Db,
  catalogs: CatalogCache,
  teamId: TeamId,
  skill: CatalogSkill,
  version: number,
): VersionContent | null | Promise<VersionContent | null> {
  if (skill.scope === "builtin" || skill.scope === "global") {
    // Skills read from disk have only the version they declare.
    const onDisk = catalogs.staticSkill(skill.name, skill.scope);
    return onDisk && version === onDisk.version ? onDisk : null;
  }
  const key = skill.scope === "workspace" ? `ws:${teamId}:${skill.name}:${version}` : `learned:${skill.learnedId}:${version}`;
  return catalogs.versionContent(key, () => readVersionContent(db, teamId, skill, version));
}

/** One version's stored text, from the table of its source. */
async function readVersionContent(db: Db, teamId: TeamId, skill: CatalogSkill, version: number): Promise<VersionContent | null> {
  const [row] =
    skill.scope === "workspace"
      ? await db
          .select({
            frontmatter: workspaceSkillVersions.frontmatter,
            body: workspaceSkillVersions.body,
            sha256: workspaceSkillVersions.sha256,
          })
          .from(workspaceSkillVersions)
          .where(
            and(
              eq(workspaceSkillVersions.teamId, teamId),
              eq(workspaceSkillVersions.name, skill.name),
              eq(workspaceSkillVersions.version, version),
            ),
          )
      : await db
          .select({ frontmatter: learnedSkillVersions.frontmatter, body: learnedSkillVersions.body, sha256: learnedSkillVersions.sha256 })
          .from(learnedSkillVersions)
          .where(and(eq(learnedSkillVersions.skillId, learnedIdOf(skill)), eq(learnedSkillVersions.version, version)));
  return row ?? null;
}

export interface ViewDeps {
  db: Db;
  catalogs: CatalogCache;
  views: { record(view: SkillView): void };
}

export interface Viewer {
  team: CatalogKey;
  keyId: number | null;
  sessionId: string | null;
}

/** `skill_view`: the content, recorded as a view (buffered, off the request's path). */
export function viewSkill(deps: ViewDeps, viewer: Viewer, name: string, version?: number): Promise<SkillContent> {
  return loadSkillContent(deps.db, deps.catalogs, viewer.team, name, version).then((content) => {
    deps.views.record({
      teamId: viewer.team.id,
      skillName: content.name,
      source: content.annotationSource,
      version: content.version,
      keyId: viewer.keyId,
      sessionId: viewer.sessionId,
      viewedAt: new Date(),
    });
    return content;
  });
}
