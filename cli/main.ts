import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isAppError } from "../lib/errors";
import { planFolders, type SyncFile } from "../lib/skills/sync";
import { packTarGz, readTarGz } from "../lib/skills/tar-gz";

/**
 * `skillgate`: the team's skills from a terminal or CI. Reads SKILLGATE_URL and SKILLGATE_API_KEY.
 * Exit codes: 0 done, 1 refused or failed (nothing changed), 2 used wrongly.
 */

const USAGE = `usage: skillgate <command>

  sync <dir>      push the skill folders in <dir> as the team's workspace skills
                  (the whole tree: folders not in <dir> are removed); checked here first
  pull <dir>      write the team's learned skills into <dir> as SKILL.md folders
  listing         print the skills listing agents get
  ledger <slug>   print a plan's experiment ledger

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
      message = (JSON.parse(body) as { error: { message: string } }).error.message;
    } catch {
      // not the error envelope: show what came back
    }
    throw new Refused(`${res.status}: ${message}`);
  }
  return res;
}

/** Every file under each skill folder of `dir`; dot files, .git and node_modules are left out. */
export function readSkillTree(dir: string): SyncFile[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${dir} is not a folder`);
  const files: SyncFile[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile() && relative !== "") files.push({ path: rel, content: readFileSync(path.join(dir, rel)) });
    }
  };
  walk("");
  return files;
}

async function sync(cfg: Config, dir: string, out: (line: string) => void): Promise<void> {
  const files = readSkillTree(dir);
  // The same checks the server makes, here first: nothing is sent when a skill is invalid.
  const folders = planFolders(files);
  for (const folder of folders) for (const warning of folder.parsed.warnings) out(warning);
  const res = await request(cfg, "/api/v1/skills/sync", {
    method: "POST",
    headers: { "content-type": "application/gzip" },
    body: new Uint8Array(await packTarGz(files)),
  });
  const result = (await res.json()) as { changes: Record<"added" | "updated" | "unchanged" | "removed", string[]>; diagnostics: string[] };
  for (const kind of ["added", "updated", "unchanged", "removed"] as const) {
    if (result.changes[kind].length > 0) out(`${kind}: ${result.changes[kind].join(", ")}`);
  }
  for (const line of result.diagnostics) if (!line.startsWith("[warning]")) out(line);
  out(`synced ${folders.length} skill folder(s)`);
}

async function pull(cfg: Config, dir: string, out: (line: string) => void): Promise<void> {
  const res = await request(cfg, "/api/v1/learned-skills/export");
  const files = await readTarGz(new Uint8Array(await res.arrayBuffer()), 64 * 1024 * 1024);
  for (const file of files) {
    const target = path.join(dir, ...file.path.split("/"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
  out(`wrote ${files.length} learned skill(s) to ${dir}`);
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
  const [command, arg, ...extra] = argv;
  try {
    if (!command || command === "help" || command === "--help" || command === "-h") {
      out(USAGE);
      return command ? 0 : 2;
    }
    const needsArg = command === "sync" || command === "pull" || command === "ledger";
    if ((needsArg && !arg) || extra.length > 0 || (!needsArg && arg)) throw new UsageError(`wrong arguments for "${command}"\n\n${USAGE}`);
    switch (command) {
      case "sync":
        await sync(config(env), checkedArg(arg), out);
        return 0;
      case "pull":
        await pull(config(env), checkedArg(arg), out);
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
