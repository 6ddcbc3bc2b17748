import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { scratchDatabase } from "../helpers/scratch-database";
import { OPS_KEY as KEY, OPS_LOGIN as LOGIN, opsOn } from "../helpers/ops-team";
import { nextStartToExit, startServer } from "../helpers/server";
import { credentialsSignIn } from "../helpers/sign-in";

/** The built server as operators run it: its limits, its data folder, https, serverless flushing (no page opened). */
describe("the built server under operation", () => {
  it("answers 429 with the seconds to wait once a key used its minute, on REST and on MCP", async () => {
    const server = await startServer({
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "ops",
      SKILLGATE_INIT_API_KEY: KEY,
      SKILLGATE_RATE_LIMIT: "5",
    });
    try {
      const headers = { authorization: `Bearer ${KEY}` };
      for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/api/v1/listing`, { headers })).status).toBe(200);
      const limited = await fetch(`${server.url}/api/v1/skills/writing-plans`, { headers });
      expect(limited.status).toBe(429);
      const seconds = Number(limited.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(await limited.json()).toEqual({
        error: { code: "RateLimited", message: `too many requests for this API key; retry in ${seconds} s` },
      });

      const client = new Client({ name: "ops-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } });
      const refused = await client.connect(transport).then(
        () => null,
        (error: Error & { code?: number }) => error,
      );
      expect(refused?.code).toBe(429);
      expect(refused?.message).toMatch(/"code":"RateLimited","message":"too many requests for this API key; retry in \d+ s"/);
      expect(server.output()).not.toContain("unexpected error");
    } finally {
      await server.stop();
    }
  });

  it("holds its PGlite folder: a stale PID file does not matter, a second process stops at start-up naming the holder, and the folder opens again once the holder is gone", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "skillgate-ops-"));
    // The lock file of an earlier version, naming a PID that a live process holds now (this one).
    writeFileSync(path.join(dataDir, "skillgate.lock"), String(process.pid));
    const server = await startServer({ SKILLGATE_DATA_DIR: dataDir, SKILLGATE_DEMO: "0" });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const second = await nextStartToExit({ SKILLGATE_DATA_DIR: dataDir, SKILLGATE_DEMO: "0" });
      expect(second.code).toBe(1);
      expect(second.output).toContain(
        `skillgate: cannot start: The embedded database in ${dataDir} is in use by process ${server.process.pid}.`,
      );
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      server.process.kill("SIGKILL");
      await server.stop();
    }
    // Killed, it could not clean up: the socket it left answers nobody, so the next start takes it over.
    const third = await startServer({ SKILLGATE_DATA_DIR: dataDir, SKILLGATE_DEMO: "0" });
    expect((await fetch(`${third.url}/api/health`)).status).toBe(200);
    await third.stop();
  });

  it("with an https public URL, sets Secure cookies and sends HSTS without any forwarded header", async () => {
    const server = await startServer({
      SKILLGATE_DEMO: "0",
      AUTH_URL: "https://skillgate.example",
      SKILLGATE_INIT_TEAM: "ops",
      SKILLGATE_INIT_USER_EMAIL: LOGIN.email,
      SKILLGATE_INIT_USER_PASSWORD: LOGIN.password,
    });
    try {
      const page = await fetch(`${server.url}/signin`);
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(page.headers.get("content-security-policy")).toMatch(/; upgrade-insecure-requests$/);
      const session = (await credentialsSignIn(server.url, LOGIN)).find((cookie) => cookie.startsWith("__Secure-authjs.session-token="));
      expect(session?.split("; ")).toEqual(expect.arrayContaining(["HttpOnly", "Secure"]));
    } finally {
      await server.stop();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "writes a view as soon as the response is sent when views flush after each response (serverless), not at the next interval",
    async () => {
      const scratch = await scratchDatabase("skillgate_ops");
      // An hour: only the after-response flush can write the view within the test.
      const server = await startServer({
        ...opsOn(scratch.url),
        SKILLGATE_VIEW_FLUSH_MS: "3600000",
        SKILLGATE_FLUSH_VIEWS_AFTER_RESPONSE: "1",
      });
      const rows = new pg.Client({ connectionString: scratch.url });
      try {
        await rows.connect();
        const viewed = await fetch(`${server.url}/api/v1/skills/writing-plans`, {
          headers: { authorization: `Bearer ${KEY}`, "x-agent-session": "serverless-1" },
        });
        expect(viewed.status).toBe(200);
        await expect
          .poll(async () => (await rows.query("select skill_name, session_id from skill_views")).rows, { timeout: 5_000 })
          .toEqual([{ skill_name: "writing-plans", session_id: "serverless-1" }]);
      } finally {
        await rows.end();
        await server.stop();
        await scratch.drop();
      }
    },
  );
});
