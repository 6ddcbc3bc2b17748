import type { Db } from "@/db/client";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import type { CatalogSkill } from "../skills/catalog";
import { workspaceFilesByName } from "../skills/files";
import { versionTexts } from "../skills/served-texts";
import type { TreeFile } from "../skills/tree";
import { exportLearned } from "./transfer";

/**
 * The team's skills as trees of SKILL.md folders, for `GET /api/v1/export` and `skillgate pull`
 * (docs/decisions/one-served-version.md): what agents get, or — for a lead, never for an
 * agent's skills folder — the team's whole workspace.
 */

/**
 * What agents get: exactly the listing's skills, every source, each at the version the catalog
 * serves the reader (a lead's pin, the label asked for), its SKILL.md byte for byte as skill_view
 * and the installers serve it, with its supporting files and their executable bits. `learnedOnly`
 * keeps the learned ones. Drafts and shadowed skills are not in it: agents are not offered them.
 */
export async function servedTree(db: Db, catalogs: CatalogCache, team: CatalogKey, learnedOnly = false): Promise<TreeFile[]> {
  const { active } = await catalogs.catalog(team);
  const skills = learnedOnly ? active.filter((skill) => skill.scope === "learned") : active;
  return skillFolders(db, catalogs, team, skills);
}

/**
 * The team's own skills whole, for a lead (`skillgate pull --all`): every workspace folder under
 * `workspace/` (shadowed ones too, so the folder can be synced back as it is), and every live
 * learned skill and draft under `learned/`, its provenance in `metadata` as the learned export
 * writes it (so the folder can be imported elsewhere).
 */
export async function workspaceTree(db: Db, catalogs: CatalogCache, team: CatalogKey): Promise<TreeFile[]> {
  const catalog = await catalogs.catalog(team);
  const folders = [...catalog.active, ...catalog.shadowed].filter((skill) => skill.scope === "workspace");
  const [workspace, learned] = await Promise.all([skillFolders(db, catalogs, team, folders), exportLearned(db, catalogs, team)]);
  return [
    ...workspace.map((file) => ({ ...file, path: `workspace/${file.path}` })),
    ...learned.map((skill) => ({ path: `learned/${skill.name}/SKILL.md`, content: Buffer.from(skill.skillMd, "utf8"), executable: false })),
  ];
}

/** Each skill's folder at the version the catalog gives it: its SKILL.md, then its supporting files. */
async function skillFolders(db: Db, catalogs: CatalogCache, team: CatalogKey, skills: CatalogSkill[]): Promise<TreeFile[]> {
  const onDisk = skills.filter((skill) => skill.scope === "builtin" || skill.scope === "global");
  const [texts, workspaceFiles, staticFiles] = await Promise.all([
    versionTexts(db, catalogs.statics, team.id, skills),
    skills.some((skill) => skill.scope === "workspace") ? workspaceFilesByName(db, team.id) : new Map<string, TreeFile[]>(),
    Promise.all(onDisk.map((skill) => filesOnDisk(catalogs, skill))),
  ]);
  const fromDisk = new Map(onDisk.map((skill, i) => [skill.name as string, staticFiles[i] ?? []]));
  return skills.flatMap((skill) => {
    const text = texts.get(skill.name);
    if (!text) return [];
    const skillMd = { path: "SKILL.md", content: Buffer.from(text.frontmatter + text.body, "utf8"), executable: false };
    // Learned skills hold only SKILL.md; a workspace skill's files are the table's, which holds its served version's.
    const files = skill.scope === "workspace" ? (workspaceFiles.get(skill.name) ?? []) : (fromDisk.get(skill.name) ?? []);
    return [skillMd, ...files].map((file) => ({ path: `${skill.name}/${file.path}`, content: file.content, executable: file.executable }));
  });
}

/** A built-in or global skill's supporting files, read from disk once (CatalogCache). */
async function filesOnDisk(catalogs: CatalogCache, skill: CatalogSkill): Promise<TreeFile[]> {
  const scope = skill.scope as "builtin" | "global";
  const files = catalogs.staticSkill(skill.name, scope)?.files ?? [];
  return Promise.all(
    files.map(async (file) => ({
      path: file.path,
      content: (await catalogs.staticFile(skill.name, scope, file.path)).content,
      executable: file.executable,
    })),
  );
}
