import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { workspaceSkillFiles, workspaceSkills } from "@/db/schema";
import { AppError } from "../errors";
import { sha256Hex } from "../hash";
import type { CatalogCache, CatalogKey } from "./catalog-cache";
import type { StaticSkill } from "./folders";
import { parseFilePath } from "./paths";
import { resolveSkill } from "./view";

/** Supporting files (`scripts/`, `references/`, `assets/`) of the skill `skill_view` would serve. */

export interface SkillFile {
  path: string;
  size: number;
  executable: boolean;
}

/** One supporting file's bytes, with their SHA-256: its ETag. */
export interface FileContent {
  content: Uint8Array;
  sha256: string;
}

/** A workspace skill's supporting files at one version, as the table held them: every path, sorted, with its bytes. */
export interface WorkspaceFiles {
  version: number;
  files: (SkillFile & FileContent)[];
}

/** A built-in or global skill in the catalog was read from disk at start-up. */
function onDisk(catalogs: CatalogCache, name: string, scope: "builtin" | "global"): StaticSkill {
  const skill = catalogs.staticSkill(name, scope);
  if (!skill) throw new Error(`${scope} skill "${name}" is in the catalog but was not read from disk`);
  return skill;
}

export async function listSkillFiles(catalogs: CatalogCache, team: CatalogKey, name: string): Promise<SkillFile[]> {
  const skill = await resolveSkill(catalogs, team, name);
  if (skill.scope === "builtin" || skill.scope === "global") {
    return onDisk(catalogs, skill.name, skill.scope).files;
  }
  if (skill.scope === "learned") return [];
  const { files } = await catalogs.workspaceFiles(team.id, skill.name, skill.version);
  return files.map(({ path, size, executable }) => ({ path, size, executable }));
}

export async function readSkillFile(catalogs: CatalogCache, team: CatalogKey, name: string, filePath: string): Promise<FileContent> {
  const safePath = parseFilePath(filePath);
  const skill = await resolveSkill(catalogs, team, name);
  if (skill.scope === "builtin" || skill.scope === "global") {
    const { files } = onDisk(catalogs, skill.name, skill.scope);
    // Only files listed at start-up are served, so nothing outside the folder can be reached.
    if (!files.some((file) => file.path === safePath)) throw fileNotFound(name, safePath, files);
    return catalogs.staticFile(skill.name, skill.scope, safePath);
  }
  if (skill.scope === "learned") throw fileNotFound(name, safePath, []);
  const { files } = await catalogs.workspaceFiles(team.id, skill.name, skill.version);
  const file = files.find((candidate) => candidate.path === safePath);
  if (!file) throw fileNotFound(name, safePath, files);
  return file;
}

/** A file of a skill read from disk, as served: its bytes and their hash. */
export async function readStaticFile(skill: StaticSkill, filePath: string): Promise<FileContent> {
  const content = await readFile(path.join(skill.dir, ...filePath.split("/")));
  return { content, sha256: sha256Hex(content) };
}

/** Every supporting file of a workspace skill, and the version the table held them for, in one query. */
export async function loadWorkspaceFiles(db: Db, teamId: number, name: string): Promise<WorkspaceFiles> {
  const rows = await db
    .select({
      version: workspaceSkills.currentVersion,
      path: workspaceSkillFiles.path,
      size: workspaceSkillFiles.size,
      executable: workspaceSkillFiles.executable,
      content: workspaceSkillFiles.content,
      sha256: workspaceSkillFiles.sha256,
    })
    .from(workspaceSkills)
    .leftJoin(
      workspaceSkillFiles,
      and(eq(workspaceSkillFiles.teamId, workspaceSkills.teamId), eq(workspaceSkillFiles.name, workspaceSkills.name)),
    )
    .where(and(eq(workspaceSkills.teamId, teamId), eq(workspaceSkills.name, name)))
    .orderBy(asc(workspaceSkillFiles.path));
  const version = rows[0]?.version ?? 0;
  const files = rows.flatMap(({ path, size, executable, content, sha256 }) =>
    path === null || size === null || executable === null || content === null || sha256 === null
      ? []
      : [{ path, size, executable, content, sha256 }],
  );
  return { version, files };
}

/** The paths of every workspace skill's supporting files, by skill, in one query: what the skills index lists. */
export async function workspaceFilePaths(db: Db, teamId: number): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ name: workspaceSkillFiles.name, path: workspaceSkillFiles.path })
    .from(workspaceSkillFiles)
    .where(eq(workspaceSkillFiles.teamId, teamId))
    .orderBy(asc(workspaceSkillFiles.name), asc(workspaceSkillFiles.path));
  const byName = new Map<string, string[]>();
  for (const { name, path } of rows) {
    const paths = byName.get(name);
    if (paths) paths.push(path);
    else byName.set(name, [path]);
  }
  return byName;
}

/** Every workspace skill's supporting files with their bytes, by skill, in one query: what an export of the whole team writes. */
export async function workspaceFilesByName(db: Db, teamId: number): Promise<Map<string, (SkillFile & FileContent)[]>> {
  const rows = await db
    .select({
      name: workspaceSkillFiles.name,
      path: workspaceSkillFiles.path,
      size: workspaceSkillFiles.size,
      executable: workspaceSkillFiles.executable,
      content: workspaceSkillFiles.content,
      sha256: workspaceSkillFiles.sha256,
    })
    .from(workspaceSkillFiles)
    .where(eq(workspaceSkillFiles.teamId, teamId))
    .orderBy(asc(workspaceSkillFiles.name), asc(workspaceSkillFiles.path));
  const byName = new Map<string, (SkillFile & FileContent)[]>();
  for (const { name, ...file } of rows) byName.set(name, [...(byName.get(name) ?? []), file]);
  return byName;
}

/**
 * Paths are case-sensitive, as on the file systems skills come from; an agent that read
 * "see FORMS.md" in a body is told the path that exists instead of guessing again.
 */
function fileNotFound(name: string, wanted: string, files: SkillFile[]): AppError {
  const lower = wanted.toLowerCase();
  const near = files.find((file) => file.path.toLowerCase() === lower);
  const hint = near ? `; paths are case-sensitive: did you mean "${near.path}"?` : "";
  return new AppError("FileNotFound", `skill "${name}" has no file "${wanted}"${hint}`);
}
