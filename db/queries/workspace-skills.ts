import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { workspaceInvalidFolders, workspaceSkills, workspaceSkillVersions } from "../schema";

/** Queries on the workspace skills (db/schema/skills.ts) that more than one capability runs. */

/** Joins a workspace skill to the version it serves. */
export const servedWorkspaceVersion = and(
  eq(workspaceSkillVersions.teamId, workspaceSkills.teamId),
  eq(workspaceSkillVersions.name, workspaceSkills.name),
  eq(workspaceSkillVersions.version, workspaceSkills.currentVersion),
);

/** The team's workspace folders that broke a hard rule at the last sync, by name. */
export function invalidWorkspaceFolders(db: Db, teamId: number) {
  return db
    .select({ name: workspaceInvalidFolders.name, errors: workspaceInvalidFolders.errors })
    .from(workspaceInvalidFolders)
    .where(eq(workspaceInvalidFolders.teamId, teamId))
    .orderBy(asc(workspaceInvalidFolders.name));
}
