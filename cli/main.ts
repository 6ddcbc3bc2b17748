import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isAppError } from "../lib/errors";
import { isSkillName } from "../lib/skills/name";
import { filePathProblem } from "../lib/skills/paths";
import { packTarGz, readTarGz } from "../lib/skills/tar-gz";
import { readDiskTree } from "../lib/skills/tree";

/**
 * `skillgate`: the team's skills from a terminal or CI. Reads SKILLGATE_URL and SKILLGATE_API_KEY.
 * Exit codes: 0 done, 1 refused or failed (nothing changed), 2 used wrongly.
 */

const USAGE = `usage: skillgate <command>

  sync <dir> [--strict] [--dry-run] [--allow-empty]
                          push the skill folders in <dir> as the team's workspace skills
                          (the whole tree: folders not in <dir> are removed); an invalid
                          folder is reported and not served; --strict refuses the whole
                          tree when any folder is invalid, and nothing changes (for CI);
                          --dry-run prints what would change and writes nothing; a <dir>
                          with no skill folder is refused unless --allow-empty
  pull <dir> [--label <label>] [--learned]
                          write what agents get into <dir> (an agent's skills folder, such
                          as .claude/skills): exactly the listing's skills, each at the
                          version served (a lead's pin; with --label, that label's), its
                          files byte for byte with their executable bits; a folder an
                          earlier pull wrote that is no longer served is removed, others
                          are left alone; --learned: the learned ones only
  pull --all [<dir>]      a lead's copy of the team's whole workspace, drafts and shadowed
                          folders included, into <dir> (default ./skillgate-workspace):
                          workspace/<folder> (sync it back as it is) and learned/<name>
                          (provenance in metadata; import it elsewhere). Never into an
                          agent's skills folder: agents must not be offered drafts
  listing                 print the skills listing agents get
  ledger <slug>           print a plan's experiment ledger

environment: SKILLGATE_URL (e.g. https://skillgate.example.com), SKILLGATE_API_KEY`;

class UsageError extends Error {}
class Refused extends Error {}

interface Config {
  url: string;
  key: string;
}

function config(env: NodeJS.ProcessEnv): Config {
  const url = env.SKILLGATE_URL?.replace(/\/$/, "");
  const key = env.SKILLGATE_API_KEY;
  if (!url || !key) throw new UsageError("set SKILLGATE_URL and SKILLGATE_API_KEY");
  return { url, key };
}

async function request(cfg: Config, route: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${cfg.url}${route}`, { ...init, headers: { authorization: `Bearer ${cfg.key}`, ...init.headers } });
  } catch (error) {
    throw new Refused(`cannot reach ${cfg.url}: ${(error as Error).message}`);
  }
  if (!res.ok) {
    const body = await res.text();
    let message = body;
    try {
      ({ message } = (JSON.parse(body) as { error: { message: string } }).error);
    } catch {
      // not the error envelope: show what came back
    }
    throw new Refused(`${res.status}: ${message}`);
  }
  return res;
}

interface SyncAnswer {
  changes: Record<"added" | "updated" | "unchanged" | "removed", string[]>;
  diagnostics: string[];
  invalid: { folder: string; errors: string[] }[];
  ignored: string[];
  dryRun: boolean;
}

const SYNC_FLAGS = { "--strict": "strict", "--dry-run": "dryRun", "--allow-empty": "allowEmpty" } as const;

/**
 * Sends `dir` as `tar -C dir .` would: the server's filter decides what is content, for every way a
 * tree arrives, and a refusal (a tree with no skill folder says where they are) is its message.
 */
async function sync(cfg: Config, dir: string, flags: Set<string>, out: (line: string) => void): Promise<void> {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${dir} is not a folder`);
  const query = Object.entries(SYNC_FLAGS)
    .filter(([flag]) => flags.has(flag))
    .map(([, parameter]) => `${parameter}=true`)
    .join("&");
  const res = await request(cfg, `/api/v1/skills/sync${query ? `?${query}` : ""}`, {
    method: "POST",
    headers: { "content-type": "application/gzip" },
    body: new Uint8Array(await packTarGz(readDiskTree(dir))),
  });
  const result = (await res.json()) as SyncAnswer;
  for (const kind of ["added", "updated", "unchanged", "removed"] as const) {
    if (result.changes[kind].length > 0) out(`${kind}: ${result.changes[kind].join(", ")}`);
  }
  if (result.ignored.length > 0) out(`ignored: ${result.ignored.join(", ")}`);
  // A dry run's diagnostics are those the tree would give: the same lines the sync then prints.
  for (const line of result.diagnostics) out(line);
  const served = result.changes.added.length + result.changes.updated.length + result.changes.unchanged.length;
  const invalid = result.invalid.length > 0 ? `; ${result.invalid.length} invalid, not served as they are` : "";
  out(
    result.dryRun
      ? `dry run: would sync ${served} skill folder(s)${invalid}; nothing written`
      : `synced ${served} skill folder(s)${invalid}`,
  );
}

/** What a pull asks for: what agents get (with a label, or the learned ones only), or the whole workspace. */
type PullKind = { all: true } | { all: false; label: string | null; learnedOnly: boolean };

/** Where `skillgate pull` notes the folders it wrote, so the next pull removes those no longer served and nothing else. */
const PULL_NOTE = ".skillgate-pull.json";

/**
 * Writes the export under `dir`, every file with its executable bit. A skill's folder is written
 * whole (a file it no longer has does not linger); a folder the last pull wrote that is no longer
 * served goes, and nothing else in `dir` is touched.
 */
async function pull(cfg: Config, dir: string, kind: PullKind, out: (line: string) => void): Promise<void> {
  if (kind.all && isAgentSkillsFolder(dir))
    throw new UsageError(
      `--all writes drafts and shadowed skills, which agents must not be offered: pull --all into a folder that is not an agent's skills folder (not ${dir})`,
    );
  const query = kind.all
    ? "all=true"
    : [kind.label && `label=${encodeURIComponent(kind.label)}`, kind.learnedOnly && "learned=true"].filter(Boolean).join("&");
  const res = await request(cfg, `/api/v1/export${query ? `?${query}` : ""}`);
  const { files } = await readTarGz(new Uint8Array(await res.arrayBuffer()), 256 * 1024 * 1024);
  for (const file of files) {
    // The server wrote these paths, but a file outside `dir` is refused all the same.
    const problem = filePathProblem(file.path);
    if (problem) throw new Refused(`the export holds an unsafe path: ${problem}`);
  }
  const folders = [
    ...new Set(files.map((file) => (kind.all ? file.path.split("/").slice(0, 2).join("/") : (file.path.split("/")[0] ?? "")))),
  ];
  const earlier = pulledBefore(dir);
  for (const folder of new Set([...folders, ...earlier])) rmSync(path.join(dir, ...folder.split("/")), { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(dir, ...file.path.split("/"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
    chmodSync(target, file.executable ? 0o755 : 0o644);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, PULL_NOTE), `${JSON.stringify({ folders }, null, 2)}\n`);
  const gone = earlier.filter((folder) => !folders.includes(folder));
  const what = kind.all ? "workspace and learned " : kind.learnedOnly ? "learned " : "";
  out(`wrote ${folders.length} ${what}skill(s), ${files.length} file(s), to ${dir}`);
  if (gone.length > 0) out(`removed ${gone.length} no longer served: ${gone.join(", ")}`);
}

/** The folders the last pull into `dir` wrote, as it noted them; only names a pull could have written are taken. */
function pulledBefore(dir: string): string[] {
  let note: unknown;
  try {
    note = JSON.parse(readFileSync(path.join(dir, PULL_NOTE), "utf8"));
  } catch {
    return [];
  }
  const folders = (note as { folders?: unknown }).folders;
  if (!Array.isArray(folders)) return [];
  return folders.filter(
    (folder): folder is string =>
      typeof folder === "string" &&
      folder.split("/").length <= 2 &&
      folder.split("/").every((part) => isSkillName(part) || part === "workspace" || part === "learned"),
  );
}

/** `.claude/skills`, `.agents/skills`, `.cursor/skills`…: a skills folder under a hidden one, where an agent looks for skills. */
function isAgentSkillsFolder(dir: string): boolean {
  const [parent, last] = path.resolve(dir).split(path.sep).slice(-2);
  return (last === "skills" || last === "skill") && (parent?.startsWith(".") ?? false);
}

/** The argument of sync, pull or ledger, which `main` has already refused to run without. */
function checkedArg(arg: string | undefined): string {
  if (!arg) throw new Error("a command that needs an argument got past the check without one");
  return arg;
}

/** `--label staging` or `--label=staging`: the value, and argv without it. */
function takeOption(argv: string[], name: string): { value: string | null; rest: string[] } {
  const at = argv.findIndex((word) => word === name || word.startsWith(`${name}=`));
  if (at === -1) return { value: null, rest: argv };
  const word = argv[at] ?? "";
  const inline = word.includes("=") ? word.slice(word.indexOf("=") + 1) : null;
  const value = inline ?? argv[at + 1] ?? "";
  if (!value || value.startsWith("--")) throw new UsageError(`${name} needs a value, e.g. ${name} staging\n\n${USAGE}`);
  return { value, rest: [...argv.slice(0, at), ...argv.slice(at + (inline === null ? 2 : 1))] };
}

/** What `pull` was asked for, from its flags: `--all` stands alone. */
function pullKind(flags: Set<string>, label: string | null): PullKind {
  if (!flags.has("--all")) return { all: false, label, learnedOnly: flags.has("--learned") };
  if (label !== null || flags.has("--learned"))
    throw new UsageError(`--all pulls the whole workspace: leave out --label and --learned\n\n${USAGE}`);
  return { all: true };
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  try {
    if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0] ?? "")) {
      out(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    const { value: label, rest } = argv[0] === "pull" ? takeOption(argv, "--label") : { value: null, rest: argv };
    const flags = new Set(rest.filter((word) => word.startsWith("--")));
    const [command, arg, ...extra] = rest.filter((word) => !word.startsWith("--"));
    const allowed: string[] = command === "sync" ? Object.keys(SYNC_FLAGS) : command === "pull" ? ["--learned", "--all"] : [];
    if (!command) throw new UsageError(`no command\n\n${USAGE}`);
    const needsArg = command === "sync" || (command === "pull" && !flags.has("--all")) || command === "ledger";
    const mayTakeArg = needsArg || command === "pull";
    const unknownFlag = [...flags].find((flag) => !allowed.includes(flag));
    if ((needsArg && !arg) || extra.length > 0 || (!mayTakeArg && arg) || unknownFlag) {
      throw new UsageError(`wrong arguments for "${command}"${unknownFlag ? ` (${unknownFlag})` : ""}\n\n${USAGE}`);
    }
    switch (command) {
      case "sync":
        await sync(config(env), checkedArg(arg), flags, out);
        return 0;
      case "pull": {
        const kind = pullKind(flags, label);
        await pull(config(env), arg ?? "skillgate-workspace", kind, out);
        return 0;
      }
      case "listing":
        out(await (await request(config(env), "/api/v1/listing")).text());
        return 0;
      case "ledger":
        out(await (await request(config(env), `/api/v1/ledger/${encodeURIComponent(checkedArg(arg))}`)).text());
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`skillgate: ${error.message}`);
      return 2;
    }
    if (error instanceof Refused || isAppError(error)) {
      err(`skillgate: ${error.message}`);
      return 1;
    }
    err(`skillgate: ${(error as Error).message}`);
    return 1;
  }
}
