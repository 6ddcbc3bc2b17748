import type { CatalogCache, CatalogKey } from "./catalog-cache";
import { listSkillFiles } from "./files";
import type { Db } from "@/db/client";

/**
 * The skills index at `/.well-known/skills/index.json`, in the form skill installers read
 * (`npx skills add <url>`): each active skill's name, description and files, every file served
 * under `/.well-known/skills/<name>/<path>`.
 */
export async function skillsIndex(db: Db, catalogs: CatalogCache, team: CatalogKey) {
  const catalog = await catalogs.catalog(team);
  const skills = [];
  for (const skill of catalog.active) {
    const files = await listSkillFiles(db, catalogs, team, skill.name);
    skills.push({
      name: skill.name as string,
      description: skill.description,
      version: skill.version,
      files: ["SKILL.md", ...files.map((file) => file.path)],
    });
  }
  return { skills };
}
