import { decodeUtf8 } from "../text";
import { AppError } from "../errors";
import { sha256Hex } from "../hash";
import type { SkillName } from "./name";
import { SKILL_FOLDER_MAX_BYTES, SUPPORTING_FILE_MAX_BYTES } from "./paths";
import { describeSkillsBelow, skillLocations } from "./skill-locations";
import { readSkillMd, type ParsedSkill } from "./skill-md";
import type { TreeFile } from "./tree";

/**
 * A tree's plan (docs/skills-and-listing.md#sync): its filtered files grouped into the folders at its top, each checked —
 * valid ones ready to apply, invalid ones with every error. What a sync applies and an import
 * of learned skills reads.
 */

export interface SyncFolder {
  name: SkillName;
  parsed: ParsedSkill;
  skillMd: string;
  files: { path: string; content: Uint8Array; executable: boolean; sha256: string }[];
  treeSha256: string;
}

/** A folder that breaks a hard rule: not served as it is, every error reported. */
export interface InvalidFolder {
  /** The folder's name in the tree (a skill's name when it is valid). */
  name: string;
  errors: string[];
  /** Whether it holds a SKILL.md at all: a folder without one is not a skill folder (a repository's `src/`, say). */
  hasSkillMd: boolean;
}

export interface TreePlan {
  folders: SyncFolder[];
  invalid: InvalidFolder[];
}

/**
 * Groups filtered files into skill folders and checks each: valid ones to apply, invalid ones with
 * all their errors. `paths` are every file path of the tree as sent, ignored ones too: a folder
 * without a SKILL.md says where the skill folders below it are, hidden or not.
 */
export async function planTree(files: TreeFile[], paths: readonly string[] = files.map((file) => file.path)): Promise<TreePlan> {
  const byFolder = new Map<string, Map<string, TreeFile>>();
  for (const file of files) {
    const slash = file.path.indexOf("/");
    if (slash === -1) throw new Error(`"${file.path}" reached the plan unfiltered: files at the root are ignored`);
    const folder = file.path.slice(0, slash);
    const inner = file.path.slice(slash + 1);
    const entries = byFolder.get(folder) ?? new Map<string, TreeFile>();
    if (entries.has(inner)) throw new AppError("InvalidPath", `invalid path: "${file.path}" appears twice`);
    entries.set(inner, file);
    byFolder.set(folder, entries);
  }
  const sent = pathsByFolder(paths);
  const plan: TreePlan = { folders: [], invalid: [] };
  for (const [i, [folder, entries]] of [...byFolder.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).entries()) {
    // Parsing and hashing a large tree is CPU work: other requests get their turn every few hundred folders.
    if (i > 0 && i % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
    checkFileAndFolder(folder, entries);
    const planned = planFolder(folder, entries, sent.get(folder) ?? []);
    if ("errors" in planned) plan.invalid.push(planned);
    else plan.folders.push(planned);
  }
  return plan;
}

/** `x/a` and `x/a/b` cannot both be: a path is a file or a folder, as on any disk the tree came from. */
function checkFileAndFolder(folder: string, entries: Map<string, TreeFile>): void {
  for (const path of entries.keys()) {
    for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
      const parent = path.slice(0, slash);
      if (entries.has(parent)) {
        throw new AppError(
          "InvalidPath",
          `invalid path: "${folder}/${parent}" is a file, and "${folder}/${path}" puts a file inside it; a path is a file or a folder, not both`,
        );
      }
    }
  }
}

/** The tree's paths by the top-level folder they are in. */
function pathsByFolder(paths: readonly string[]): Map<string, string[]> {
  const byFolder = new Map<string, string[]>();
  for (const path of paths) {
    const slash = path.indexOf("/");
    if (slash === -1) continue;
    const folder = path.slice(0, slash);
    const inFolder = byFolder.get(folder);
    if (inFolder) inFolder.push(path);
    else byFolder.set(folder, [path]);
  }
  return byFolder;
}

function planFolder(folder: string, entries: Map<string, TreeFile>, sent: string[]): SyncFolder | InvalidFolder {
  const errors: string[] = [];
  const skillMdFile = entries.get("SKILL.md");
  const skillMd = skillMdFile ? decodeUtf8(skillMdFile.content) : null;
  let parsed: ParsedSkill | null = null;
  if (!skillMdFile) errors.push(noSkillMd(folder, sent));
  else if (skillMd === null) errors.push(`${folder}/SKILL.md is not valid UTF-8`);
  else {
    const reading = readSkillMd(skillMd, folder);
    parsed = reading.skill;
    errors.push(...reading.errors);
  }
  let total = skillMdFile?.content.byteLength ?? 0;
  const files = [...entries.entries()]
    .filter(([path]) => path !== "SKILL.md")
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, file]) => {
      if (file.content.byteLength > SUPPORTING_FILE_MAX_BYTES) {
        errors.push(`${folder}/${path} is ${file.content.byteLength} bytes; a supporting file may be at most 5 MiB`);
      }
      total += file.content.byteLength;
      return { path, content: file.content, executable: file.executable, sha256: sha256Hex(file.content) };
    });
  if (total > SKILL_FOLDER_MAX_BYTES) errors.push(`folder "${folder}" is ${total} bytes; a skill folder may be at most 20 MiB`);
  if (errors.length > 0 || parsed === null || skillMd === null) return { name: folder, errors, hasSkillMd: skillMdFile !== undefined };
  // The executable bit is content: flipping it is a new version. Plain files hash as they always have.
  const lines = files.map((file) => `${file.path} ${file.sha256}${file.executable ? " +x" : ""}`);
  const treeSha256 = sha256Hex([`SKILL.md ${sha256Hex(skillMd)}`, ...lines].join("\n"));
  return { name: parsed.name, parsed, skillMd, files, treeSha256 };
}

/** A top-level folder without a SKILL.md is no skill folder; when skill folders sit below it, where, and what to sync instead. */
function noSkillMd(folder: string, pathsBelow: string[]): string {
  const below = skillLocations(pathsBelow);
  if (below.length === 0) return `folder "${folder}" has no SKILL.md; every skill folder needs one`;
  return `folder "${folder}" has no SKILL.md, but ${describeSkillsBelow(below)}`;
}
