import { and, eq, inArray, max } from "drizzle-orm";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { only } from "@/db/rows";
import { teams, workspaceSkillFiles, workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { AppError, invalidSkill } from "../errors";
import { sha256Hex } from "../hash";
import { decodeUtf8 } from "../text";
import type { TeamId } from "../teams/teams";
import { recordListingSnapshot } from "../listing/snapshots";
import { bumpCatalogRevision, type CatalogCache } from "./catalog-cache";
import type { Catalog } from "./catalog";
import { parseSkillMd, type ParsedSkill } from "./skill-md";
import { filePathProblem, SKILL_FOLDER_MAX_BYTES, SUPPORTING_FILE_MAX_BYTES } from "./paths";

/**
 * Workspace sync (§2, §11.1): the request is the team's whole tree of skill folders. It is
 * validated completely before anything is written, then applied in one transaction: a folder
 * whose content changed gets a new version, an unchanged one keeps its version, a folder not
 * in the tree is removed.
 */

export interface SyncFile {
  /** `<folder>/<path inside the folder>` */
  path: string;
  content: Uint8Array;
}

export interface SyncFolder {
  name: string;
  parsed: ParsedSkill;
  skillMd: string;
  files: { path: string; content: Uint8Array; sha256: string }[];
  treeSha256: string;
}

export interface SyncSummary {
  added: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/** Groups a tree into validated skill folders; throws on the first invalid path or skill. */
export function planFolders(files: SyncFile[]): SyncFolder[] {
  const byFolder = new Map<string, Map<string, Uint8Array>>();
  for (const file of files) {
    const problem = filePathProblem(file.path);
    if (problem) throw new AppError("InvalidPath", `invalid path: ${problem}`);
    const slash = file.path.indexOf("/");
    if (slash === -1) {
      throw new AppError("InvalidPath", `invalid path: "${file.path}" must be <skill folder>/<file>, e.g. my-skill/SKILL.md`);
    }
    const folder = file.path.slice(0, slash);
    const inner = file.path.slice(slash + 1);
    const entries = byFolder.get(folder) ?? new Map<string, Uint8Array>();
    if (entries.has(inner)) throw new AppError("InvalidPath", `invalid path: "${file.path}" appears twice`);
    entries.set(inner, file.content);
    byFolder.set(folder, entries);
  }
  for (const [folder, entries] of byFolder) checkFileAndFolder(folder, entries);
  return [...byFolder.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([folder, entries]) => planFolder(folder, entries));
}

/** `x/a` and `x/a/b` cannot both be: a path is a file or a folder, as on any disk the tree came from. */
function checkFileAndFolder(folder: string, entries: Map<string, Uint8Array>): void {
  for (const path of entries.keys()) {
    for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
      const parent = path.slice(0, slash);
      if (entries.has(parent)) {
        throw new AppError("InvalidPath", `invalid path: "${folder}/${parent}" is a file, and "${folder}/${path}" puts a file inside it; a path is a file or a folder, not both`);
      }
    }
  }
}

function planFolder(folder: string, entries: Map<string, Uint8Array>): SyncFolder {
  const skillMdBytes = entries.get("SKILL.md");
  if (!skillMdBytes) throw invalidSkill(`folder "${folder}" has no SKILL.md; every skill folder needs one`);
  const skillMd = decodeUtf8(skillMdBytes);
  if (skillMd === null) throw invalidSkill(`${folder}/SKILL.md is not valid UTF-8`);
  const parsed = parseSkillMd(skillMd, folder);
  let total = skillMdBytes.byteLength;
  const files = [...entries.entries()]
    .filter(([path]) => path !== "SKILL.md")
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, content]) => {
      if (content.byteLength > SUPPORTING_FILE_MAX_BYTES) {
        throw invalidSkill(`${folder}/${path} is ${content.byteLength} bytes; a supporting file may be at most 5 MiB`);
      }
      total += content.byteLength;
      return { path, content, sha256: sha256Hex(content) };
    });
  if (total > SKILL_FOLDER_MAX_BYTES) {
    throw invalidSkill(`folder "${folder}" is ${total} bytes; a skill folder may be at most 20 MiB`);
  }
  const tree = [`SKILL.md ${sha256Hex(skillMd)}`, ...files.map((file) => `${file.path} ${file.sha256}`)].join("\n");
  return { name: folder, parsed, skillMd, files, treeSha256: sha256Hex(tree) };
}

export interface SyncResult {
  changes: SyncSummary;
  /** The catalog as the sync left it. */
  catalog: Catalog;
}

/** Applies the tree, then records the listing's new size when anything changed. */
export async function syncWorkspace(db: Db, catalogs: CatalogCache, teamId: TeamId, files: SyncFile[]): Promise<SyncResult> {
  const { changes, revision } = await applyTree(db, teamId, planFolders(files));
  const changed = changes.added.length + changes.updated.length + changes.removed.length;
  if (changed > 0) await recordListingSnapshot(db, catalogs, teamId, `sync: ${changed} folder(s) changed`);
  return { changes, catalog: await catalogs.catalog({ id: teamId, catalogRevision: revision }) };
}

function applyTree(db: Db, teamId: TeamId, folders: SyncFolder[]): Promise<{ changes: SyncSummary; revision: number }> {
  return db.transaction(async (tx) => {
    // Concurrent syncs of one team apply one after the other, each a whole tree.
    const rows = await tx
      .select({ revision: teams.catalogRevision })
      .from(teams)
      .where(eq(teams.id, teamId))
      .for("update");
    const locked = only(rows);
    const current = new Map(
      (
        await tx
          .select({ name: workspaceSkills.name, version: workspaceSkills.currentVersion, tree: workspaceSkillVersions.treeSha256 })
          .from(workspaceSkills)
          .innerJoin(
            workspaceSkillVersions,
            and(
              eq(workspaceSkillVersions.teamId, workspaceSkills.teamId),
              eq(workspaceSkillVersions.name, workspaceSkills.name),
              eq(workspaceSkillVersions.version, workspaceSkills.currentVersion),
            ),
          )
          .where(eq(workspaceSkills.teamId, teamId))
      ).map((row) => [row.name, row]),
    );
    const summary: SyncSummary = { added: [], updated: [], unchanged: [], removed: [] };
    for (const folder of folders) {
      const existing = current.get(folder.name);
      if (existing?.tree === folder.treeSha256) {
        summary.unchanged.push(folder.name);
        continue;
      }
      await writeFolder(tx, teamId, folder);
      (existing ? summary.updated : summary.added).push(folder.name);
    }
    const keep = new Set(folders.map((folder) => folder.name));
    summary.removed = [...current.keys()].filter((name) => !keep.has(name)).sort();
    for (const names of inSlices(summary.removed)) {
      await tx.delete(workspaceSkills).where(and(eq(workspaceSkills.teamId, teamId), inArray(workspaceSkills.name, names)));
      await tx.delete(workspaceSkillFiles).where(and(eq(workspaceSkillFiles.teamId, teamId), inArray(workspaceSkillFiles.name, names)));
    }
    const changed = summary.added.length + summary.updated.length + summary.removed.length > 0;
    const revision = changed ? await bumpCatalogRevision(tx, teamId) : locked.revision;
    return { changes: summary, revision };
  });
}

async function writeFolder(tx: Db, teamId: TeamId, folder: SyncFolder): Promise<void> {
  // Numbering continues across removals: a vN of a name always means the same bytes.
  const [{ latest } = { latest: 0 }] = await tx
    .select({ latest: max(workspaceSkillVersions.version) })
    .from(workspaceSkillVersions)
    .where(and(eq(workspaceSkillVersions.teamId, teamId), eq(workspaceSkillVersions.name, folder.name)));
  const version = (latest ?? 0) + 1;
  const { parsed } = folder;
  await tx.insert(workspaceSkillVersions).values({
    teamId,
    name: folder.name,
    version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    sha256: sha256Hex(folder.skillMd),
    treeSha256: folder.treeSha256,
  });
  const row = { currentVersion: version, description: parsed.description, warnings: parsed.warnings, updatedAt: new Date() };
  await tx
    .insert(workspaceSkills)
    .values({ teamId, name: folder.name, ...row })
    .onConflictDoUpdate({ target: [workspaceSkills.teamId, workspaceSkills.name], set: row });
  await tx
    .delete(workspaceSkillFiles)
    .where(and(eq(workspaceSkillFiles.teamId, teamId), eq(workspaceSkillFiles.name, folder.name)));
  for (const files of inSlices(folder.files)) {
    await tx.insert(workspaceSkillFiles).values(
      files.map((file) => ({
        teamId,
        name: folder.name,
        path: file.path,
        content: Buffer.from(file.content),
        size: file.content.byteLength,
        sha256: file.sha256,
      })),
    );
  }
}
