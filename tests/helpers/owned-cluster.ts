import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of the test's own (initdb, pg_ctl), so a test can do to a real server what
 * an operator sees happen: stop it, start it again, freeze it with SIGSTOP. Needs PostgreSQL's
 * server binaries (Debian's `postgresql` package, which CI installs); run as root, the server runs
 * as the `postgres` user, as PostgreSQL requires.
 */
export interface OwnedCluster {
  /** A superuser URL of the cluster's `postgres` database. */
  url: string;
  stop(): void;
  start(): void;
  /** Every process of the server stops (SIGSTOP), as a frozen machine would; `thaw` resumes them. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

/** The newest installed server's binaries, or null where none is installed. */
export function postgresBinaries(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

function run(bin: string, args: string[]): void {
  const asRoot = userInfo().uid === 0;
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: "pipe" });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startOwnedCluster(): Promise<OwnedCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql: install the postgresql package");
  const dir = `/tmp/skillgate-cluster-${randomBytes(4).toString("hex")}`;
  mkdirSync(dir, { recursive: true });
  if (userInfo().uid === 0) {
    const ids = execFileSync("id", ["-u", "postgres"]).toString().trim();
    chownSync(dir, Number(ids), Number(execFileSync("id", ["-g", "postgres"]).toString().trim()));
  }
  const data = path.join(dir, "data");
  const port = await freePort();
  run(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const pgCtl = path.join(bin, "pg_ctl");
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run(pgCtl, ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  const stop = () => run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]);
  const processes = () => {
    const postmaster = readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]!;
    const children = execFileSync("pgrep", ["-P", postmaster]).toString().trim().split("\n").filter(Boolean);
    return [postmaster, ...children];
  };
  const signal = (name: string) => execFileSync("kill", [`-${name}`, ...processes()]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    freeze: () => signal("STOP"),
    thaw: () => signal("CONT"),
    destroy: () => {
      try {
        signal("CONT");
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
