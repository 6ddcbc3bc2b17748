import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isAppError } from "../lib/errors";
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
  pull <dir> [--learned]  write the team's workspace and learned skills into <dir>, every
                          file with its executable bit; --learned: learned skills only
  listing                 print the skills listing agents get
  ledger <slug>           print a plan's experiment ledger

environment: SKILLGATE_URL (e.g. https://skillgate.example.com), SKILLGATE_API_KEY`;

class UsageError extends Error {}
class Refused extends Error {
  /** The API's error code, when the refusal came in its envelope. */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

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
    let code: string | undefined;
    try {
      ({ message, code } = (JSON.parse(body) as { error: { message: string; code: string } }).error);
    } catch {
      // not the error envelope: show what came back
    }
    throw new Refused(`${res.status}: ${message}`, code);
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

/** Writes every file of the export under `dir`, with its executable bit. */
async function pull(cfg: Config, dir: string, learnedOnly: boolean, out: (line: string) => void): Promise<void> {
  const res = await request(cfg, learnedOnly ? "/api/v1/learned-skills/export" : "/api/v1/export");
  const { files } = await readTarGz(new Uint8Array(await res.arrayBuffer()), 256 * 1024 * 1024);
  const folders = new Set<string>();
  for (const file of files) {
    // The server wrote these paths, but a file outside `dir` is refused all the same.
    const problem = filePathProblem(file.path);
    if (problem) throw new Refused(`the export holds an unsafe path: ${problem}`);
    const target = path.join(dir, ...file.path.split("/"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
    chmodSync(target, file.executable ? 0o755 : 0o644);
    folders.add(file.path.split("/")[0] ?? "");
  }
  out(`wrote ${folders.size} ${learnedOnly ? "learned " : ""}skill(s), ${files.length} file(s), to ${dir}`);
}

/** The argument of sync, pull or ledger, which `main` has already refused to run without. */
function checkedArg(arg: string | undefined): string {
  if (!arg) throw new Error("a command that needs an argument got past the check without one");
  return arg;
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const flags = new Set(argv.filter((word) => word.startsWith("--")));
  const [command, arg, ...extra] = argv.filter((word) => !word.startsWith("--"));
  const allowed: string[] = command === "sync" ? Object.keys(SYNC_FLAGS) : command === "pull" ? ["--learned"] : [];
  try {
    if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0] ?? "")) {
      out(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    if (!command) throw new UsageError(`no command\n\n${USAGE}`);
    const needsArg = command === "sync" || command === "pull" || command === "ledger";
    const unknownFlag = [...flags].find((flag) => !allowed.includes(flag));
    if ((needsArg && !arg) || extra.length > 0 || (!needsArg && arg) || unknownFlag) {
      throw new UsageError(`wrong arguments for "${command}"${unknownFlag ? ` (${unknownFlag})` : ""}\n\n${USAGE}`);
    }
    switch (command) {
      case "sync":
        await sync(config(env), checkedArg(arg), flags, out);
        return 0;
      case "pull":
        await pull(config(env), checkedArg(arg), flags.has("--learned"), out);
        return 0;
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
