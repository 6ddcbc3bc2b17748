import { sha256Hex } from "../hash";
import { findStaticSkill, type CatalogSkill, type StaticCatalog } from "./catalog";

/**
 * The skills index at `/.well-known/skills/index.json`, in the form skill installers read
 * (`npx skills add <url>`): each active skill's name, description and files, every file served
 * under `/.well-known/skills/<name>/<path>`. Built once per catalog state (CatalogCache), so it is
 * kept as the text it answers with and that text's hash, its ETag.
 */
export interface SkillsIndex {
  json: string;
  etag: string;
}

export function buildSkillsIndex(active: CatalogSkill[], statics: StaticCatalog, workspacePaths: Map<string, string[]>): SkillsIndex {
  const skills = active.map((skill) => ({
    name: skill.name as string,
    description: skill.description,
    version: skill.version,
    files: ["SKILL.md", ...filePaths(skill, statics, workspacePaths)],
  }));
  const json = JSON.stringify({ skills });
  return { json, etag: `"${sha256Hex(json)}"` };
}

function filePaths(skill: CatalogSkill, statics: StaticCatalog, workspacePaths: Map<string, string[]>): string[] {
  if (skill.scope === "workspace") return workspacePaths.get(skill.name) ?? [];
  if (skill.scope === "learned") return [];
  return findStaticSkill(statics, skill.name, skill.scope)?.files.map((file) => file.path) ?? [];
}
