import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { workspaceSkillFiles } from "@/db/schema";
import { AppError } from "../errors";
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

/** A built-in or global skill in the catalog was read from disk at start-up. */
function onDisk(catalogs: CatalogCache, name: string, scope: "builtin" | "global"): StaticSkill {
  const skill = catalogs.staticSkill(name, scope);
  if (!skill) throw new Error(`${scope} skill "${name}" is in the catalog but was not read from disk`);
  return skill;
}

export async function listSkillFiles(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string): Promise<SkillFile[]> {
  const skill = await resolveSkill(catalogs, team, name);
  if (skill.scope === "builtin" || skill.scope === "global") {
    return onDisk(catalogs, skill.name, skill.scope).files;
  }
  if (skill.scope === "learned") return [];
  return db
    .select({ path: workspaceSkillFiles.path, size: workspaceSkillFiles.size, executable: workspaceSkillFiles.executable })
    .from(workspaceSkillFiles)
    .where(and(eq(workspaceSkillFiles.teamId, team.id), eq(workspaceSkillFiles.name, skill.name)))
    .orderBy(asc(workspaceSkillFiles.path));
}

export async function readSkillFile(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string, filePath: string): Promise<Uint8Array> {
  const safePath = parseFilePath(filePath);
  const skill = await resolveSkill(catalogs, team, name);
  if (skill.scope === "builtin" || skill.scope === "global") {
    const { files, dir } = onDisk(catalogs, skill.name, skill.scope);
    // Only files listed at start-up are served, so nothing outside the folder can be reached.
    if (!files.some((file) => file.path === safePath)) throw fileNotFound(name, safePath, files);
    return readFile(path.join(dir, ...safePath.split("/")));
  }
  if (skill.scope === "learned") throw fileNotFound(name, safePath, []);
  const [row] = await db
    .select({ content: workspaceSkillFiles.content })
    .from(workspaceSkillFiles)
    .where(and(eq(workspaceSkillFiles.teamId, team.id), eq(workspaceSkillFiles.name, skill.name), eq(workspaceSkillFiles.path, safePath)));
  if (!row) throw fileNotFound(name, safePath, await listSkillFiles(db, catalogs, team, name));
  return row.content;
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
