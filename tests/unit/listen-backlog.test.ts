import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { guardNodeServer, LISTEN_BACKLOG } from "@/lib/http/node-server";

/** The backlog the kernel holds for the socket listening on `port`: `ss` shows it as a listener's Send-Q. */
function backlogOf(port: number): number {
  const line = execFileSync("ss", ["-ltnH", `sport = :${port}`], { encoding: "utf8" }).trim();
  const [, , sendQ] = line.split(/\s+/);
  return Number(sendQ);
}

it("widens the listen backlog of a server Next started with Node's default, at its first connection", async () => {
  guardNodeServer();
  const server = createServer((_req, res) => res.end("ok"));
  // As `next start` does: no backlog given, so Node's 511.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    expect(backlogOf(port)).toBe(511);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("ok");
    const somaxconn = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    expect(backlogOf(port)).toBe(Math.min(LISTEN_BACKLOG, somaxconn));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
