/**
 * Where a tree's skill folders sit when they are deeper than a sync reads them (docs/skills-and-listing.md#sync: the folders
 * at the top of the tree): the SKILL.md files below it, hidden folders included, counted by the
 * folder that holds each skill folder. What a sender most likely meant to sync, said when a tree,
 * or a folder at its top, holds no skill folder of its own. One reading for every way a tree
 * arrives: the CLI sends a hidden folder's SKILL.md files (without their content) for it.
 */

export interface SkillLocation {
  /** `skills/`, or `plugins/*\/skills/` standing for folders of one layout that differ in one name. */
  where: string;
  /** Skill folders (SKILL.md files) in it. */
  count: number;
  /** The folders it stands for, most skill folders first: one, unless `where` is a pattern. */
  folders: { path: string; count: number }[];
}

/** Never where a team keeps its skills: a repository's history, installed packages. Not counted, and the CLI does not look. */
export const NEVER_HOLDS_SKILLS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** How many locations, and folders of one, a sentence names before it says how many more. */
const NAMED = 3;

/** Locations of the SKILL.md files among `paths` (paths in the tree), most skill folders first. */
export function skillLocations(paths: readonly string[]): SkillLocation[] {
  const byFolder = new Map<string, number>();
  for (const path of paths) {
    const segments = path.split("/");
    // `<folder>/SKILL.md` is a skill folder at the top, where a sync reads it; `SKILL.md` the tree itself.
    if (segments.at(-1) !== "SKILL.md" || segments.length < 3 || segments.some((segment) => NEVER_HOLDS_SKILLS.has(segment))) continue;
    const holder = `${segments.slice(0, -2).join("/")}/`;
    byFolder.set(holder, (byFolder.get(holder) ?? 0) + 1);
  }
  return byLayout(byFolder).sort((a, b) => b.count - a.count || byteOrder(a.where, b.where));
}

/**
 * Folders that differ in one name above the folder holding the skill folders (`plugins/a/skills/`,
 * `plugins/b/skills/`) are one location, `plugins/*\/skills/`. Each folder joins the pattern that
 * most folders share; a pattern only one folder takes is that folder.
 */
function byLayout(byFolder: Map<string, number>): SkillLocation[] {
  const patternsOf = (folder: string) => {
    const segments = folder.slice(0, -1).split("/");
    return segments.slice(0, -1).map((_, i) => `${[...segments.slice(0, i), "*", ...segments.slice(i + 1)].join("/")}/`);
  };
  const sharing = new Map<string, number>();
  for (const folder of byFolder.keys()) for (const pattern of patternsOf(folder)) sharing.set(pattern, (sharing.get(pattern) ?? 0) + 1);
  const members = new Map<string, { path: string; count: number }[]>();
  for (const [folder, count] of byFolder) {
    const [best] = patternsOf(folder).sort((a, b) => (sharing.get(b) ?? 0) - (sharing.get(a) ?? 0) || byteOrder(a, b));
    const where = best !== undefined && (sharing.get(best) ?? 0) > 1 ? best : folder;
    const joined = members.get(where);
    if (joined) joined.push({ path: folder, count });
    else members.set(where, [{ path: folder, count }]);
  }
  return [...members].flatMap(([where, folders]) =>
    folders.length === 1
      ? folders.map((folder) => ({ where: folder.path, count: folder.count, folders: [folder] }))
      : [location(where, folders)],
  );
}

function location(where: string, folders: { path: string; count: number }[]): SkillLocation {
  const sorted = folders.sort((a, b) => b.count - a.count || byteOrder(a.path, b.path));
  return { where, count: sorted.reduce((sum, folder) => sum + folder.count, 0), folders: sorted };
}

/**
 * `N skill folder(s) sit deeper than a sync reads (…): 7 in skills/. Sync skills/ itself instead.`
 * — the sentence that follows "Its" (a tree) or "folder "x" has no SKILL.md, but" (a folder of it).
 */
export function describeSkillsBelow(locations: SkillLocation[]): string {
  return `${skillFolderCount(locations)} skill folder(s) sit deeper than a sync reads (the folders at the top of the tree): ${listLocations(locations)}. ${whatToSync(locations)}`;
}

function skillFolderCount(locations: SkillLocation[]): number {
  return locations.reduce((sum, location) => sum + location.count, 0);
}

/** `76 in plugins/*\/skills/ (42 folders: 14 in plugins/trailmark/skills/, … and 39 more), 1 in .codex/skills/` */
function listLocations(locations: SkillLocation[]): string {
  const named = locations.slice(0, NAMED).map(({ where, count, folders }) => {
    if (folders.length === 1) return `${count} in ${where}`;
    const first = folders.slice(0, NAMED).map((folder) => `${folder.count} in ${folder.path}`);
    const more = folders.length > NAMED ? ` and ${folders.length - NAMED} more` : "";
    return `${count} in ${where} (${folders.length} folders: ${first.join(", ")}${more})`;
  });
  const rest = locations.slice(NAMED);
  if (rest.length > 0) named.push(`${skillFolderCount(rest)} in ${rest.length} more place(s)`);
  return named.join(", ");
}

/** What to sync instead: the one folder that holds them, or, when they are spread, the one holding most. */
function whatToSync(locations: SkillLocation[]): string {
  const folders = locations.flatMap((location) => location.folders).sort((a, b) => b.count - a.count || byteOrder(a.path, b.path));
  const [most] = folders;
  if (!most) throw new Error("no skill folder below the tree to name");
  if (folders.length === 1) return `Sync ${most.path} itself instead.`;
  return `A sync reads one folder of skill folders: sync the one that holds most (${most.path}), or gather the skill folders into one folder and sync that.`;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
