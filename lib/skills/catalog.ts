import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { invalidWorkspaceFolders } from "@/db/queries/workspace-skills";
import { AppError, skillNotFound } from "../errors";
import { learnedSkillLabels, learnedSkills, workspaceSkills } from "@/db/schema";
import { compareCodePoints, type ListingScope } from "../listing/render";
import type { TeamId } from "../teams/teams";
import type { SkillName } from "./name";
import type { LabelName } from "./label";
import type { InvalidStaticFolder, StaticSkill } from "./folders";
import { invalidLines, workspaceFolderLabel } from "./invalid-folders";

/**
 * The team's catalog: every skill it can see, resolved by precedence (docs/skills-and-listing.md#sources-and-precedence).
 * Built-in and global skills come from disk; workspace and learned ones from the database.
 */

export type SkillSource = "builtin" | "file" | "learned";
export type SkillStatus = "active" | "draft" | "shadowed";

/** A file skill's folder that breaks a hard rule (docs/skills-and-listing.md#validation): not served as it is. */
export interface InvalidCatalogFolder {
  /** The folder's name, which may not be a valid skill name. */
  name: string;
  scope: "global" | "workspace";
  /** `global/<folder>` or `skills/<folder>`: the label its skill has (docs/skills-and-listing.md#sources-and-precedence), in `GET /api/v1/skills` and on the dashboard. */
  folder: string;
  /** Where the folder is, as its `[invalid]` lines name it: `<folder>` in the tree the team synced, `global/<folder>`. */
  path: string;
  errors: string[];
}

export interface CatalogSkill {
  name: SkillName;
  description: string;
  source: SkillSource;
  scope: ListingScope;
  version: number;
  /** `global/<name>` or `skills/<name>` for file skills, else null. */
  folder: string | null;
  status: SkillStatus;
  warnings: string[];
  /** The row id of a learned skill: its versions are cached by it, since an archived name can be reused. */
  learnedId: number | null;
  /** Where a learned skill came from (docs/learned-skills.md#provenance); null for other sources. */
  provenance: Provenance | null;
  /** Set when a lead pinned a learned skill (docs/learned-skills.md#pins): `version` is then the pinned one, and this its latest. */
  pinned?: { latest: number };
  /** Set when the reader asked for a label this learned skill has (docs/learned-skills.md#labels): `version` is the labelled one, and this its latest. */
  label?: { name: LabelName; latest: number };
}

/** The newest version a skill has: its latest when pinned or labelled, else the one it serves. */
export function latestVersionOf(skill: Pick<CatalogSkill, "version" | "pinned" | "label">): number {
  return skill.label?.latest ?? skill.pinned?.latest ?? skill.version;
}

/** The row id of a learned skill: the catalog gives every learned skill one. */
export function learnedIdOf(skill: Pick<CatalogSkill, "name" | "learnedId">): number {
  if (skill.learnedId === null) throw new Error(`learned skill "${skill.name}" has no row id`);
  return skill.learnedId;
}

export interface Provenance {
  source: "agent" | "user" | "imported";
  ref: string | null;
  reason: string | null;
  createdAt: string;
  forkedFrom: string | null;
}

export interface Catalog {
  /** Skills in the listing, in listing order: group by group, names in byte order. */
  active: CatalogSkill[];
  shadowed: CatalogSkill[];
  drafts: CatalogSkill[];
  /** Folders that break a hard rule; a skill's last valid version may still be among `active`. */
  invalid: InvalidCatalogFolder[];
  /** `[collision] …` lines in name order. */
  diagnostics: string[];
  /** `[invalid] …` then `[warning] …` lines: shown in the API and dashboard, not the listing. */
  warnings: string[];
  /** What a name resolves to (docs/skills-and-listing.md#skill_view): the active skill of that name, else the draft. */
  named: ReadonlyMap<string, CatalogSkill>;
}

/** The label a collision diagnostic uses for a skill: `builtin`, `learned`, `file global/x`, `file skills/x`. */
export function collisionLabel(skill: Pick<CatalogSkill, "source" | "folder">): string {
  return skill.source === "file" ? `file ${skill.folder}` : skill.source;
}

const PRECEDENCE: Record<ListingScope, number> = { builtin: 0, global: 1, workspace: 2, learned: 3 };

/** Group by group, names in code point order: how the listing orders skills. */
const listingOrder = (a: CatalogSkill, b: CatalogSkill) => PRECEDENCE[a.scope] - PRECEDENCE[b.scope] || compareCodePoints(a.name, b.name);

/** Pure: decides winners and losers among active candidates of every source; drafts join the result later (`withDrafts`). */
export function resolveCatalog(candidates: CatalogSkill[], invalid: InvalidCatalogFolder[] = []): Catalog {
  const byName = new Map<string, [CatalogSkill, ...CatalogSkill[]]>();
  for (const skill of candidates) {
    const list = byName.get(skill.name);
    if (list) list.push(skill);
    else byName.set(skill.name, [skill]);
  }
  const active: CatalogSkill[] = [];
  const shadowed: CatalogSkill[] = [];
  const diagnostics: string[] = [];
  const groups = [...byName].sort(([a], [b]) => compareCodePoints(a, b));
  for (const [name, group] of groups) {
    const [winner, ...losers] = group.sort((a, b) => PRECEDENCE[a.scope] - PRECEDENCE[b.scope]);
    active.push(winner);
    for (const loser of losers) {
      shadowed.push({ ...loser, status: "shadowed" });
      diagnostics.push(`[collision] ${name} (${collisionLabel(loser)}) shadowed by ${collisionLabel(winner)}`);
    }
  }
  active.sort(listingOrder);
  const warnings = [
    ...invalid.flatMap((folder) => invalidLines(folder.path, folder.errors)),
    // In listing order, not the order rows came in: a dry run and the sync it previews say the same.
    ...[...candidates].sort(listingOrder).flatMap((skill) => skill.warnings),
  ];
  return { active, shadowed, drafts: [], invalid, diagnostics, warnings, named: namedSkills(active, []) };
}

/** The catalog with these drafts: drafts never shadow and are not listed, so they join a resolved catalog as they are. */
export function withDrafts(listed: Catalog, drafts: CatalogSkill[]): Catalog {
  return { ...listed, drafts, named: namedSkills(listed.active, drafts) };
}

function namedSkills(active: CatalogSkill[], drafts: CatalogSkill[]): Map<string, CatalogSkill> {
  const named = new Map<string, CatalogSkill>(drafts.map((skill) => [skill.name, skill]));
  for (const skill of active) named.set(skill.name, skill);
  return named;
}

export interface StaticCatalog {
  skills: StaticSkill[];
  invalid: InvalidStaticFolder[];
}

/** A built-in or global skill as read from disk. */
export function findStaticSkill(statics: StaticCatalog, name: string, scope: "builtin" | "global"): StaticSkill | undefined {
  return statics.skills.find((skill) => skill.name === name && skill.scope === scope);
}

export function staticCatalogSkill(skill: StaticSkill): CatalogSkill {
  return {
    name: skill.name,
    description: skill.description,
    source: skill.scope === "builtin" ? "builtin" : "file",
    scope: skill.scope,
    version: skill.version,
    folder: skill.folder,
    status: "active",
    warnings: skill.warnings,
    learnedId: null,
    provenance: null,
  };
}

/**
 * The part of a team's catalog the listing is made of: built-in and global skills, the workspace,
 * invalid folders and active learned skills, resolved. Drafts are loaded apart (`loadDrafts`), so
 * writing a draft does not reload this. A reader that asks for a label gets the labelled versions.
 */
export async function loadListedCatalog(db: Db, statics: StaticCatalog, teamId: TeamId, label: LabelName | null = null): Promise<Catalog> {
  const [workspace, workspaceInvalid, learned] = await Promise.all([
    db
      .select({
        name: workspaceSkills.name,
        description: workspaceSkills.description,
        version: workspaceSkills.currentVersion,
        warnings: workspaceSkills.warnings,
      })
      .from(workspaceSkills)
      .where(eq(workspaceSkills.teamId, teamId)),
    invalidWorkspaceFolders(db, teamId),
    learnedOf(db, teamId, "active", label),
  ]);
  const candidates: CatalogSkill[] = statics.skills.map(staticCatalogSkill);
  for (const row of workspace) {
    candidates.push({
      name: row.name as SkillName,
      description: row.description,
      source: "file",
      scope: "workspace",
      version: row.version,
      folder: workspaceFolderLabel(row.name),
      status: "active",
      warnings: row.warnings,
      learnedId: null,
      provenance: null,
    });
  }
  candidates.push(...learned);
  const invalid: InvalidCatalogFolder[] = [
    ...statics.invalid.map((folder) => ({
      name: folder.name,
      scope: "global" as const,
      folder: folder.folder,
      path: folder.folder,
      errors: folder.errors,
    })),
    ...invalidFoldersOfWorkspace(workspaceInvalid),
  ];
  return resolveCatalog(candidates, invalid);
}

/** The workspace's invalid folders as the catalog holds them, by name: each named as in the tree sent, labelled `skills/<folder>`. */
export function invalidFoldersOfWorkspace(folders: { name: string; errors: string[] }[]): InvalidCatalogFolder[] {
  return folders
    .map((folder) => ({
      name: folder.name,
      scope: "workspace" as const,
      folder: workspaceFolderLabel(folder.name),
      path: folder.name,
      errors: folder.errors,
    }))
    .sort((a, b) => compareCodePoints(a.name, b.name));
}

/** The labels on a team's live learned skills (docs/learned-skills.md#labels): by skill name, each label and the version it marks. */
export type TeamLabels = ReadonlyMap<string, readonly { label: LabelName; version: number }[]>;

export async function loadTeamLabels(db: Db, teamId: TeamId): Promise<TeamLabels> {
  const rows = await db
    .select({ name: learnedSkills.name, label: learnedSkillLabels.label, version: learnedSkillLabels.version })
    .from(learnedSkillLabels)
    .innerJoin(learnedSkills, eq(learnedSkills.id, learnedSkillLabels.skillId))
    .where(and(eq(learnedSkills.teamId, teamId), inArray(learnedSkills.status, ["active", "draft"])))
    .orderBy(asc(learnedSkillLabels.label));
  const labels = new Map<string, { label: LabelName; version: number }[]>();
  for (const row of rows) labels.set(row.name, [...(labels.get(row.name) ?? []), { label: row.label as LabelName, version: row.version }]);
  return labels;
}

/**
 * A reader's label must be on some version of one of the team's skills (docs/learned-skills.md#labels): one that is on none
 * is a typo, refused with the labels the team has, instead of serving every default in silence.
 */
export function requireKnownLabel(labels: TeamLabels, label: LabelName): void {
  const known = [...new Set([...labels.values()].flatMap((marks) => marks.map((mark) => mark.label)))].sort(compareCodePoints);
  if (known.includes(label)) return;
  const have = known.length === 0 ? "the team has no labels" : `the team's labels are ${known.join(", ")}`;
  throw new AppError("LabelNotFound", `no skill of this team has the label '${label}'; ${have}`);
}

/** The team's learned drafts, by name. */
export async function loadDrafts(db: Db, teamId: TeamId, label: LabelName | null = null): Promise<CatalogSkill[]> {
  return (await learnedOf(db, teamId, "draft", label)).sort((a, b) => compareCodePoints(a.name, b.name));
}

async function learnedOf(db: Db, teamId: TeamId, status: "active" | "draft", label: LabelName | null): Promise<CatalogSkill[]> {
  // No label asked for joins nothing: no label is empty.
  const labelled = and(eq(learnedSkillLabels.skillId, learnedSkills.id), eq(learnedSkillLabels.label, label ?? ""));
  const rows = await db
    .select({
      id: learnedSkills.id,
      name: learnedSkills.name,
      description: learnedSkills.description,
      version: learnedSkills.currentVersion,
      pinnedVersion: learnedSkills.pinnedVersion,
      pinnedDescription: learnedSkills.pinnedDescription,
      sourceKind: learnedSkills.sourceKind,
      sourceRef: learnedSkills.sourceRef,
      reason: learnedSkills.reason,
      createdAt: learnedSkills.createdAt,
      forkedFrom: learnedSkills.forkedFrom,
      labelledVersion: learnedSkillLabels.version,
      labelledDescription: learnedSkillLabels.description,
    })
    .from(learnedSkills)
    .leftJoin(learnedSkillLabels, labelled)
    .where(and(eq(learnedSkills.teamId, teamId), eq(learnedSkills.status, status)));
  return rows.map((row) => ({
    name: row.name as SkillName,
    ...servedVersion(row, label),
    source: "learned",
    scope: "learned",
    folder: null,
    status,
    warnings: [],
    learnedId: row.id,
    provenance: {
      source: row.sourceKind,
      ref: row.sourceRef,
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
      forkedFrom: row.forkedFrom,
    },
  }));
}

interface LearnedVersions {
  version: number;
  description: string;
  pinnedVersion: number | null;
  pinnedDescription: string | null;
  labelledVersion: number | null;
  labelledDescription: string | null;
}

/** Why a reader gets the version it gets (docs/learned-skills.md#one-served-version): the label it asked for, a lead's pin, or the latest. */
export type ServedWhy = "label" | "pinned" | "latest";

/** The version a reader gets and why: what every answer that changes or serves it says (`"served"`). */
export interface Served {
  version: number;
  why: ServedWhy;
  /** The label, when `why` is "label". */
  label?: LabelName;
}

/**
 * Which version of a learned skill a reader gets — the one rule every reader and every answer
 * uses (docs/decisions/one-served-version.md): the version with the label the reader asked for, where
 * the skill has it; else the version a lead pinned; else the latest. Built-in and file skills
 * have only their latest.
 */
export function servedChoice(latest: number, pinned: number | null, labelled: number | null): { version: number; why: ServedWhy } {
  if (labelled !== null) return { version: labelled, why: "label" };
  if (pinned !== null) return { version: pinned, why: "pinned" };
  return { version: latest, why: "latest" };
}

/** What a catalog skill serves, and why. */
export function servedOf(skill: Pick<CatalogSkill, "version" | "pinned" | "label">): Served {
  if (skill.label) return { version: skill.version, why: "label", label: skill.label.name };
  return { version: skill.version, why: skill.pinned ? "pinned" : "latest" };
}

/** A learned skill's row as the catalog reads it: the version and description the reader gets. */
function servedVersion(row: LearnedVersions, label: LabelName | null): Pick<CatalogSkill, "version" | "description" | "pinned" | "label"> {
  const labelled = label !== null && row.labelledDescription !== null ? row.labelledVersion : null;
  const choice = servedChoice(row.version, row.pinnedVersion, labelled);
  if (choice.why === "label" && label !== null)
    return {
      version: choice.version,
      description: row.labelledDescription ?? row.description,
      label: { name: label, latest: row.version },
    };
  if (choice.why === "pinned")
    return { version: choice.version, description: row.pinnedDescription ?? row.description, pinned: { latest: row.version } };
  return { version: choice.version, description: row.description };
}

/** Every skill the team can see, in the order `GET /api/v1/skills` lists them: active, shadowed, drafts, then invalid folders. */
export function catalogEntries(catalog: Catalog): (CatalogSkill | InvalidCatalogFolder)[] {
  return [...catalog.active, ...catalog.shadowed, ...catalog.drafts, ...catalog.invalid];
}

/** One entry as `GET /api/v1/skills` describes it. Called per page: a 10,000-skill catalog is not mapped whole on every request. */
export function describeEntry(entry: CatalogSkill | InvalidCatalogFolder) {
  if ("errors" in entry) {
    return {
      name: entry.name,
      source: "file" as const,
      scope: entry.scope,
      version: null,
      description: "",
      status: "invalid" as const,
      folder: entry.folder,
      errors: entry.errors,
    };
  }
  return {
    name: entry.name,
    source: entry.source,
    scope: entry.scope,
    version: entry.version,
    description: entry.description,
    status: entry.status,
    folder: entry.folder,
    ...(entry.provenance && { provenance: entry.provenance }),
    ...(entry.pinned && { pinned: true as const }),
    served: servedOf(entry),
  };
}

export function catalogDiagnostics(catalog: Catalog): string[] {
  return [...catalog.diagnostics, ...catalog.warnings];
}

export function describeCatalog(catalog: Catalog) {
  return { skills: catalogEntries(catalog).map(describeEntry), diagnostics: catalogDiagnostics(catalog) };
}

/**
 * For records of runs and loads (observations, harness views): each item with the version its
 * named skill ran at, checked against the team's catalog (active skills and drafts). `list` names
 * the batch field in errors; a single record gets the plain SkillNotFound message.
 */
export function versionsThatRan<T extends { skill: string; version?: number }>(catalog: Catalog, items: T[], list: string): [T, number][] {
  const known = new Map([...catalog.active, ...catalog.drafts].map((skill) => [skill.name as string, latestVersionOf(skill)]));
  const where = (i: number) => (items.length === 1 ? "" : `${list}.${i}: `);
  return items.map((item, i) => {
    const current = known.get(item.skill);
    if (current === undefined) {
      throw items.length === 1 ? skillNotFound(item.skill) : new AppError("SkillNotFound", `${where(i)}no skill named '${item.skill}'`);
    }
    const version = item.version ?? current;
    if (version > current) throw new AppError("InvalidField", `${where(i)}${item.skill} has no v${version}; it is at v${current}`);
    return [item, version];
  });
}
