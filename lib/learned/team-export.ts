import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { workspaceSkillFiles, workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { exportLearned } from "./transfer";
import type { TeamId } from "../teams/teams";
import { servedWorkspaceVersion } from "@/db/queries/workspace-skills";
import type { Tree, TreeFile } from "../skills/tree";

/**
 * The team's own skills as one tree of SKILL.md folders (what `skillgate pull <dir>` writes):
 * every workspace skill at the version it serves, with all its files and their executable bits,
 * then the live learned skills (provenance in `metadata`, as the learned export writes them).
 * A learned skill that a workspace folder shadows is left out: the folder already holds that name.
 */
export async function exportTeamTree(db: Db, teamId: TeamId): Promise<Tree> {
  const [workspace, files, learned] = await Promise.all([
    db
      .select({ name: workspaceSkills.name, frontmatter: workspaceSkillVersions.frontmatter, body: workspaceSkillVersions.body })
      .from(workspaceSkills)
      .innerJoin(workspaceSkillVersions, servedWorkspaceVersion)
      .where(eq(workspaceSkills.teamId, teamId))
      .orderBy(asc(workspaceSkills.name)),
    db
      .select({
        name: workspaceSkillFiles.name,
        path: workspaceSkillFiles.path,
        content: workspaceSkillFiles.content,
        executable: workspaceSkillFiles.executable,
      })
      .from(workspaceSkillFiles)
      .where(eq(workspaceSkillFiles.teamId, teamId))
      .orderBy(asc(workspaceSkillFiles.name), asc(workspaceSkillFiles.path)),
    exportLearned(db, teamId),
  ]);
  const inWorkspace = new Set(workspace.map((skill) => skill.name));
  const tree: TreeFile[] = [
    ...workspace.map((skill) => ({
      path: `${skill.name}/SKILL.md`,
      content: Buffer.from(skill.frontmatter + skill.body, "utf8"),
      executable: false,
    })),
    ...files.map((file) => ({ path: `${file.name}/${file.path}`, content: file.content, executable: file.executable })),
    ...learned
      .filter((skill) => !inWorkspace.has(skill.name))
      .map((skill) => ({ path: `${skill.name}/SKILL.md`, content: Buffer.from(skill.skillMd, "utf8"), executable: false })),
  ];
  return { files: tree, others: [] };
}
