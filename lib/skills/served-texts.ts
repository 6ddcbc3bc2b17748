import type { Db } from "@/db/client";
import { learnedVersionsIn } from "@/db/queries/learned-skills";
import { workspaceVersionsIn } from "@/db/queries/workspace-skills";
import { learnedSkillVersions, workspaceSkillVersions } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import type { VersionContent } from "./catalog-cache";
import { findStaticSkill, learnedIdOf, type CatalogSkill, type StaticCatalog } from "./catalog";

/**
 * The stored text of many skills at the versions the catalog gives them (a pull or an export of
 * thousands of skills): one query per source, not one per skill. Which version each gets was
 * decided by the catalog (`servedChoice`); this only reads it. Keyed by skill name.
 */
export async function versionTexts(
  db: Db,
  statics: StaticCatalog,
  teamId: TeamId,
  skills: readonly CatalogSkill[],
): Promise<Map<string, VersionContent>> {
  const workspace = skills.filter((skill) => skill.scope === "workspace").map((skill) => ({ name: skill.name, version: skill.version }));
  const learned = skills.filter((skill) => skill.scope === "learned");
  const [workspaceRows, learnedRows] = await Promise.all([
    workspace.length === 0
      ? []
      : db
          .select({
            name: workspaceSkillVersions.name,
            frontmatter: workspaceSkillVersions.frontmatter,
            body: workspaceSkillVersions.body,
            sha256: workspaceSkillVersions.sha256,
          })
          .from(workspaceSkillVersions)
          .where(workspaceVersionsIn(teamId, workspace)),
    learned.length === 0
      ? []
      : db
          .select({
            skillId: learnedSkillVersions.skillId,
            frontmatter: learnedSkillVersions.frontmatter,
            body: learnedSkillVersions.body,
            sha256: learnedSkillVersions.sha256,
          })
          .from(learnedSkillVersions)
          .where(learnedVersionsIn(learned.map((skill) => ({ id: learnedIdOf(skill), version: skill.version })))),
  ]);
  const byName = new Map(workspaceRows.map(({ name, ...text }) => [name, text]));
  const byId = new Map(learnedRows.map(({ skillId, ...text }) => [skillId, text]));
  const texts = new Map<string, VersionContent>();
  for (const skill of skills) {
    const text =
      skill.scope === "workspace"
        ? byName.get(skill.name)
        : skill.scope === "learned"
          ? byId.get(learnedIdOf(skill))
          : findStaticSkill(statics, skill.name, skill.scope);
    if (text) texts.set(skill.name, text);
  }
  return texts;
}
