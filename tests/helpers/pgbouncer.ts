import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { freePort } from "./server";
import { waitFor } from "./wait";

/**
 * PgBouncer in transaction mode in front of a PostgreSQL server, as deployments put it (and as
 * Neon's pooled URL behaves): a connection is the client's only for one transaction, so LISTEN,
 * session locks and start-up parameters it does not know do not work through it. Debian's
 * `pgbouncer` package (CI installs it); as root it runs as the `postgres` user, as it requires.
 */
export interface Pgbouncer {
  /** `serverUrl` with the pooler's host and port: what goes into DATABASE_URL. */
  url: string;
  stop(): void;
}

export function pgbouncerBinary(): string | null {
  return ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((candidate) => existsSync(candidate)) ?? null;
}

export async function startPgbouncer(serverUrl: string): Promise<Pgbouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error("no pgbouncer binary: install Debian's pgbouncer package");
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(tmpdir(), "skillgate-pgbouncer-"));
  const port = await freePort();
  const user = decodeURIComponent(server.username || "postgres");
  writeFileSync(path.join(dir, "userlist.txt"), `"${user}" "${decodeURIComponent(server.password)}"\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 4000",
      "default_pool_size = 20",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
    ].join("\n"),
  );
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    for (const file of ["", "userlist.txt", "pgbouncer.ini"]) chownSync(path.join(dir, file), uid, gid);
  }
  execFileSync(binary, ["-d", ...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: "pipe" });
  const pidFile = path.join(dir, "pgbouncer.pid");
  await waitFor(() => existsSync(pidFile), { what: "pgbouncer to start" });
  const url = new URL(serverUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    stop: () => {
      try {
        process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGTERM");
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
