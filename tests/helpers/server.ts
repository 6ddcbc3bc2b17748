import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "./wait";

/** The built app served by `next start` on its own port and data folder, as `npm start` runs it. */
export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** SIGTERM, then wait for the process to exit; returns its exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.SKILLGATE_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "skillgate-e2e-"));
  const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "true",
      AUTH_SECRET: randomBytes(32).toString("base64"),
      AUTH_TRUST_HOST: "true",
      SKILLGATE_DATA_DIR: dataDir,
      SKILLGATE_RATE_LIMIT: "0",
      DATABASE_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const healthy = async () => {
    if (child.exitCode !== null) throw new Error("the server exited while starting");
    try {
      return (await fetch(`${url}/api/health`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  await waitFor(healthy, { what: "the server to answer its health check", timeoutMs: 120_000, intervalMs: 100 }).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output}`);
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * `next start` (the server started directly, as in the Dockerfile) with the given variables and
 * none of the runner's SKILLGATE_INIT_*, run to its exit: its code and its output. For a start
 * that must refuse or stop.
 */
export async function nextStartToExit(vars: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("SKILLGATE_INIT_"));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    NODE_ENV: "production",
    AUTH_SECRET: randomBytes(32).toString("base64"),
    AUTH_TRUST_HOST: "true",
    DATABASE_URL: "",
    ...vars,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // A deadline, not a pause: a server that should have stopped but serves on is killed, and the test sees no exit code.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
