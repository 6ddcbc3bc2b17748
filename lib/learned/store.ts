import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evaluations, learnedSkills, learnedSkillVersions, users, workspaceSkills } from "@/db/schema";
import { specError } from "../errors";
import type { StaticCatalog } from "../skills/catalog";
import type { TeamId } from "../teams/teams";

/** Reads of learned skills and of who else holds a name. */

export type LearnedRow = typeof learnedSkills.$inferSelect;
export type LearnedVersionRow = typeof learnedSkillVersions.$inferSelect;

/**
 * Inside a write's transaction, the row is locked (`for update`): concurrent writes of one skill
 * run one after the other, each seeing the state the one before left, on PostgreSQL as on PGlite.
 */
export interface ReadOptions {
  lock?: boolean;
}

/** The draft or active learned skill of this name (one name, one place), or null. */
export async function findLiveLearned(db: Db, teamId: TeamId, name: string, options: ReadOptions = {}): Promise<LearnedRow | null> {
  const query = db
    .select()
    .from(learnedSkills)
    .where(and(eq(learnedSkills.teamId, teamId), eq(learnedSkills.name, name), ne(learnedSkills.status, "archived")));
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** The most recently archived learned skill of this name, or null. */
export async function findArchivedLearned(db: Db, teamId: TeamId, name: string, options: ReadOptions = {}): Promise<LearnedRow | null> {
  const query = db
    .select()
    .from(learnedSkills)
    .where(and(eq(learnedSkills.teamId, teamId), eq(learnedSkills.name, name), eq(learnedSkills.status, "archived")))
    .orderBy(desc(learnedSkills.archivedAt), desc(learnedSkills.id))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

export async function getLearnedVersion(db: Db, skillId: number, version: number): Promise<LearnedVersionRow | null> {
  const [row] = await db
    .select()
    .from(learnedSkillVersions)
    .where(and(eq(learnedSkillVersions.skillId, skillId), eq(learnedSkillVersions.version, version)));
  return row ?? null;
}

export async function listLearnedVersions(db: Db, skillId: number) {
  return db
    .select({ version: learnedSkillVersions, authorEmail: users.email, amendmentId: evaluations.amendmentId })
    .from(learnedSkillVersions)
    .leftJoin(users, eq(users.id, learnedSkillVersions.authorUserId))
    .leftJoin(evaluations, eq(evaluations.id, learnedSkillVersions.evaluationId))
    .where(eq(learnedSkillVersions.skillId, skillId))
    .orderBy(asc(learnedSkillVersions.version));
}

export type NameHolder = { source: "builtin"; folder: null } | { source: "file"; folder: string };

/** A built-in or file skill that holds this name, which no learned skill may take or change. */
export async function nameHolder(db: Db, statics: StaticCatalog, teamId: TeamId, name: string): Promise<NameHolder | null> {
  const onDisk = statics.skills.find((skill) => skill.name === name);
  if (onDisk?.scope === "builtin") return { source: "builtin", folder: null };
  if (onDisk) {
    if (onDisk.folder === null) throw new Error(`global skill "${name}" has no folder`);
    return { source: "file", folder: onDisk.folder };
  }
  const [workspace] = await db
    .select({ name: workspaceSkills.name })
    .from(workspaceSkills)
    .where(and(eq(workspaceSkills.teamId, teamId), eq(workspaceSkills.name, name)));
  return workspace ? { source: "file", folder: `skills/${name}` } : null;
}

/** docs/learned-skills.md#errors-that-protect-precedence: creating or promoting a learned skill under a built-in's or file skill's name. */
export function nameCollision(name: string, holder: NameHolder) {
  return specError("NameCollision", `"${name}" is held by a ${holder.source} skill`);
}

/** docs/learned-skills.md#errors-that-protect-precedence: changing a skill that is not learned. */
export function notLearned(name: string, holder: NameHolder) {
  return holder.source === "builtin"
    ? specError("BuiltInImmutable", `"${name}" is a built-in skill`)
    : specError("FileSkillReadOnly", `"${name}" comes from ${holder.folder}; change the file and sync`);
}

/** Deleting a skill that is already archived: the second of two deletes. */
export function alreadyArchived(name: string) {
  return specError("AlreadyArchived", `"${name}" is archived; a lead can restore it`);
}

export function skillExists(name: string) {
  return specError("SkillExists", `learned skill "${name}" already exists`);
}

export function versionConflict(name: string, current: number, expected: number) {
  return specError("VersionConflict", `"${name}" is at v${current}, not v${expected}`);
}
