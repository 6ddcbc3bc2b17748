import { createHash } from "node:crypto";
import { realpathSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Two processes on one PGlite folder lose data without an error, so the folder is locked by the
 * process that opens it. The lock is a Unix socket the holder listens on: only a live holder can
 * answer it, so it cannot be confused by a stale file or by another process that got the old
 * holder's PID, and the operating system releases it when the holder dies, however it dies.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const socketPath = lockSocketPath(dataDir);
  const server = createServer((socket) => socket.end(String(process.pid)));
  server.unref();
  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const holder = await askHolder(socketPath);
    if (holder !== null) {
      throw new Error(
        `The embedded database in ${path.resolve(dataDir)} is in use by process ${holder}. ` +
          `Stop that process, or set SKILLGATE_DATA_DIR to another folder.`,
      );
    }
    // Nobody answers: the socket was left by a process that died. Take it over.
    rmSync(socketPath, { force: true });
    await listen(server, socketPath);
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Unix socket paths are limited to about 100 bytes; a folder too deep gets one in the temp folder named by its real path. */
function lockSocketPath(dataDir: string): string {
  const inFolder = path.join(path.resolve(dataDir), "skillgate.lock.sock");
  if (Buffer.byteLength(inFolder) <= 100) return inFolder;
  const id = createHash("sha256").update(realpathSync(dataDir)).digest("hex").slice(0, 24);
  return path.join(tmpdir(), `skillgate-${id}.sock`);
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * The PID the holder answers with, or null when no process listens on the socket. A holder that
 * accepts but does not answer (stopped, busy) still holds the lock.
 */
function askHolder(socketPath: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let connected = false;
    let answer = "";
    socket.on("connect", () => (connected = true));
    socket.setTimeout(2000, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => resolve(connected ? answer.trim() || "unknown" : null));
  });
}
