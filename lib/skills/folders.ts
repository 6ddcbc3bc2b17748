import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../hash";
import { decodeUtf8 } from "../text";
import { declaredVersion, readSkillMd } from "./skill-md";
import type { SkillName } from "./name";
import { SKILL_FOLDER_MAX_BYTES, SUPPORTING_FILE_MAX_BYTES } from "./paths";
import { ignoredPart } from "./tree";

/** A skill read from a folder on disk at start-up: a built-in one, or one of SKILLS_GLOBAL_DIR. */
export interface StaticSkill {
  name: SkillName;
  scope: "builtin" | "global";
  description: string;
  version: number;
  /** `global/<name>` for a global skill; built-in skills report no folder. */
  folder: string | null;
  frontmatter: string;
  body: string;
  sha256: string;
  warnings: string[];
  /** Absolute path of the skill folder, where its supporting files are read from. */
  dir: string;
  files: SupportingFileInfo[];
}

export interface SupportingFileInfo {
  path: string;
  size: number;
  executable: boolean;
}

/** A folder on disk that breaks a hard rule (docs/skills-and-listing.md#validation): reported, not served. */
export interface InvalidStaticFolder {
  /** `global/<folder>`, or `builtin/<folder>` for a skill shipped with the deployment. */
  folder: string;
  name: string;
  scope: StaticSkill["scope"];
  errors: string[];
}

export interface LoadedFolders {
  skills: StaticSkill[];
  invalid: InvalidStaticFolder[];
}

/** Reads every `<root>/<name>/SKILL.md`. A folder without SKILL.md is not a skill and is passed over. */
export function loadSkillFolders(root: string, scope: StaticSkill["scope"]): LoadedFolders {
  const skills: StaticSkill[] = [];
  const invalid: InvalidStaticFolder[] = [];
  const entries = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && ignoredPart(entry.name, true) === null)
    .map((entry) => entry.name)
    .sort();
  for (const folderName of entries) {
    const dir = path.join(root, folderName);
    const skillMd = path.join(dir, "SKILL.md");
    if (!statSync(skillMd, { throwIfNoEntry: false })?.isFile()) continue;
    const text = decodeUtf8(readFileSync(skillMd));
    const reading = text === null ? { skill: null, errors: [`${folderName}/SKILL.md is not valid UTF-8`] } : readSkillMd(text, folderName);
    const { files, errors } = listSupportingFiles(dir, folderName);
    if (reading.skill === null || text === null || errors.length > 0) {
      invalid.push({ folder: `${scope}/${folderName}`, name: folderName, scope, errors: [...reading.errors, ...errors] });
      continue;
    }
    const parsed = reading.skill;
    skills.push({
      name: parsed.name,
      scope,
      description: parsed.description,
      version: declaredVersion(parsed.metadata),
      folder: scope === "global" ? `global/${folderName}` : null,
      frontmatter: parsed.frontmatter,
      body: parsed.body,
      sha256: sha256Hex(text),
      warnings: parsed.warnings,
      dir,
      files,
    });
  }
  return { skills, invalid };
}

function listSupportingFiles(dir: string, folderName: string): { files: SupportingFileInfo[]; errors: string[] } {
  const files: SupportingFileInfo[] = [];
  const errors: string[] = [];
  let total = 0;
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      // The same filter a synced tree goes through: no hidden entries, no node_modules.
      if (ignoredPart(`${folderName}/${rel}`, entry.isDirectory()) !== null) continue;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile() && rel !== "SKILL.md") {
        const stat = statSync(path.join(dir, rel));
        if (stat.size > SUPPORTING_FILE_MAX_BYTES)
          errors.push(`${folderName}/${rel} is ${stat.size} bytes; a supporting file may be at most 5 MiB`);
        total += stat.size;
        files.push({ path: rel, size: stat.size, executable: (stat.mode & 0o111) !== 0 });
      }
    }
  };
  walk("");
  if (total > SKILL_FOLDER_MAX_BYTES) errors.push(`folder "${folderName}" is ${total} bytes; a skill folder may be at most 20 MiB`);
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), errors };
}
