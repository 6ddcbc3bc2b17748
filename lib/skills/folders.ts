import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../hash";
import { decodeUtf8 } from "../text";
import { isAppError } from "../errors";
import { declaredVersion, parseSkillMd } from "./skill-md";
import type { SkillName } from "./name";
import { SKILL_FOLDER_MAX_BYTES, SUPPORTING_FILE_MAX_BYTES } from "./paths";

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
}

export interface LoadedFolders {
  skills: StaticSkill[];
  /** `[error] …` lines for folders that could not be served. */
  errors: string[];
}

/** Reads every `<root>/<name>/SKILL.md`. A folder without SKILL.md is not a skill and is passed over. */
export function loadSkillFolders(root: string, scope: StaticSkill["scope"]): LoadedFolders {
  const skills: StaticSkill[] = [];
  const errors: string[] = [];
  const entries = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const folderName of entries) {
    const dir = path.join(root, folderName);
    const skillMd = path.join(dir, "SKILL.md");
    try {
      if (!statSync(skillMd, { throwIfNoEntry: false })?.isFile()) continue;
      const text = decodeUtf8(readFileSync(skillMd));
      if (text === null) throw new Error("SKILL.md is not valid UTF-8");
      const parsed = parseSkillMd(text, folderName);
      const files = listSupportingFiles(dir, folderName);
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
    } catch (error) {
      const label = scope === "global" ? `global/${folderName}` : `skills/${folderName}`;
      errors.push(`[error] ${label}: ${isAppError(error) ? error.message : String(error)}`);
    }
  }
  return { skills, errors };
}

function listSupportingFiles(dir: string, folderName: string): SupportingFileInfo[] {
  const files: SupportingFileInfo[] = [];
  let total = 0;
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile() && rel !== "SKILL.md") {
        const size = statSync(path.join(dir, rel)).size;
        if (size > SUPPORTING_FILE_MAX_BYTES) throw new Error(`${folderName}/${rel} is larger than 5 MiB`);
        total += size;
        files.push({ path: rel, size });
      }
    }
  };
  walk("");
  if (total > SKILL_FOLDER_MAX_BYTES) throw new Error(`${folderName} is larger than 20 MiB`);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
