import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import { filePathProblem } from "./paths";
import { NEVER_HOLDS_SKILLS } from "./skill-locations";

/**
 * A tree of skill folders as it arrives — JSON files, a .tar.gz, or a folder the CLI read —
 * and the one filter that decides what of it is a skill's content (docs/skills-and-listing.md#sync). Every way in goes
 * through `filterTree`, so the same tree gives the same versions whichever way it came.
 */

export interface TreeFile {
  /** `<folder>/<path inside the folder>` */
  path: string;
  content: Uint8Array;
  /** The file's executable bit: part of its content (a script at 755 comes back at 755). */
  executable: boolean;
}

/** An entry that holds no bytes of its own: a folder, or a link (symbolic or hard), a device, a pipe. */
export interface TreeOtherEntry {
  path: string;
  kind: "folder" | "link";
  /** Where a link points, when it was read from disk (a tar written by the CLI carries it). */
  target?: string;
}

export interface Tree {
  files: TreeFile[];
  others: TreeOtherEntry[];
}

export interface FilteredTree {
  files: TreeFile[];
  /** What was left out, in byte order; an ignored folder is named once, with a trailing `/`. */
  ignored: string[];
}

/**
 * Names that are never a skill's content: version control, editor and OS droppings, installed
 * dependencies. Hidden entries (a leading dot) are left out too: `.git/`, `.DS_Store`, `.env`.
 */
const NOT_CONTENT = new Set(["node_modules", "__MACOSX", "Thumbs.db", "desktop.ini"]);

function isIgnoredName(segment: string): boolean {
  return segment.startsWith(".") || NOT_CONTENT.has(segment);
}

/**
 * The part of `path` that makes it ignored — a file at the root of the tree, a hidden or
 * non-content name at any depth (reported as the folder, with `/`, when it is one) — or null.
 */
export function ignoredPart(path: string, isFolder = false): string | null {
  const segments = path.split("/");
  for (const [i, segment] of segments.entries()) {
    if (!isIgnoredName(segment)) continue;
    const last = i === segments.length - 1;
    return segments.slice(0, i + 1).join("/") + (last && !isFolder ? "" : "/");
  }
  return segments.length === 1 && !isFolder ? path : null;
}

/** Throws on an unsafe path; leaves out what is not content; keeps every file's bytes and bit. */
export function filterTree(tree: Tree): FilteredTree {
  const ignored = new Set<string>();
  const files: TreeFile[] = [];
  for (const entry of [...tree.files, ...tree.others]) {
    const problem = filePathProblem(entry.path);
    if (problem) throw new AppError("InvalidPath", `invalid path: ${problem}`);
  }
  for (const file of tree.files) {
    const part = ignoredPart(file.path);
    if (part === null) files.push(file);
    else ignored.add(part);
  }
  for (const other of tree.others) {
    const isFolder = other.kind === "folder";
    const part = ignoredPart(other.path, isFolder);
    // A link is never followed: what it points to may be outside the tree, or nowhere.
    if (part !== null) ignored.add(part);
    else if (!isFolder) ignored.add(other.path);
  }
  return { files, ignored: [...ignored].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/**
 * A folder on disk as a tree, as `tar -C dir .` would send it: files with their executable bit,
 * links as links (never followed). A folder the filter ignores is sent as the bare folder, not its
 * content (`.git/` or `node_modules/` can be large, and the server names it as ignored anyway),
 * except for where its SKILL.md files are: each goes as an empty file, so the server can say
 * where the skill folders of a tree sent from the wrong folder are (`.claude/skills/`). Never
 * their content: an ignored folder is not the team's to send.
 */
export function readDiskTree(dir: string): Tree {
  const tree: Tree = { files: [], others: [] };
  const walk = (relative: string, ignored: boolean) => {
    const entries = readdirSync(path.join(dir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(dir, rel);
      if (ignored) {
        if (entry.isDirectory() && !NEVER_HOLDS_SKILLS.has(entry.name)) walk(rel, true);
        else if (entry.isFile() && entry.name === "SKILL.md") tree.files.push({ path: rel, content: new Uint8Array(), executable: false });
      } else if (entry.isSymbolicLink()) tree.others.push({ path: rel, kind: "link", target: readlinkSync(full) });
      else if (entry.isDirectory()) {
        tree.others.push({ path: rel, kind: "folder" });
        if (!NEVER_HOLDS_SKILLS.has(entry.name)) walk(rel, ignoredPart(rel, true) !== null);
      } else if (entry.isFile()) {
        const executable = (lstatSync(full).mode & 0o111) !== 0;
        tree.files.push({ path: rel, content: readFileSync(full), executable });
      } else tree.others.push({ path: rel, kind: "link" });
    }
  };
  walk("", false);
  return tree;
}
