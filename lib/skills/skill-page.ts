import type { Db } from "@/db/client";
import { lintDescription, type LintFinding } from "../lint/lint";
import type { Team } from "../teams/teams";
import type { CatalogCache } from "./catalog-cache";
import { listSkillFiles, type SkillFile } from "./files";
import { annotationLine, loadSkillContent, type SkillContent } from "./view";

export interface SkillPage {
  content: SkillContent;
  annotation: string;
  files: SkillFile[];
  lint: LintFinding[];
}

/** What the dashboard shows of one skill. Reading it here is not agent usage: no view is recorded. */
export async function skillPage(db: Db, catalogs: CatalogCache, team: Team, name: string): Promise<SkillPage> {
  const content = await loadSkillContent(db, catalogs, team, name);
  const files = await listSkillFiles(db, catalogs, team, name);
  return { content, annotation: annotationLine(content), files, lint: lintDescription(content.skill.description, team.descMax) };
}
