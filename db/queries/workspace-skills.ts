import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { workspaceInvalidFolders, workspaceSkills, workspaceSkillVersions } from "../schema";

/** Queries on the workspace skills (db/schema/skills.ts) that more than one capability runs. */

/** Joins a workspace skill to the version it serves. */
export const servedWorkspaceVersion = and(
  eq(workspaceSkillVersions.teamId, workspaceSkills.teamId),
  eq(workspaceSkillVersions.name, workspaceSkills.name),
  eq(workspaceSkillVersions.version, workspaceSkills.currentVersion),
);

/** A team's workspace versions named by (name, version) pairs, in one condition (see `learnedVersionsIn`). */
export function workspaceVersionsIn(teamId: number, pairs: { name: string; version: number }[]) {
  return and(
    eq(workspaceSkillVersions.teamId, teamId),
    sql`(${workspaceSkillVersions.name}, ${workspaceSkillVersions.version}) in
      (select name, version from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as pairs(name text, version int))`,
  );
}

/** The team's workspace folders that broke a hard rule at the last sync, by name. */
export function invalidWorkspaceFolders(db: Db, teamId: number) {
  return db
    .select({ name: workspaceInvalidFolders.name, errors: workspaceInvalidFolders.errors })
    .from(workspaceInvalidFolders)
    .where(eq(workspaceInvalidFolders.teamId, teamId))
    .orderBy(asc(workspaceInvalidFolders.name));
}
