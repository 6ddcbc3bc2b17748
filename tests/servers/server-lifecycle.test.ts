import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { skillViews } from "@/db/schema";
import { startServer, type RunningServer } from "../helpers/server";

const KEY = "sg_lifecycle_test_key_000000000001";

/** A raw GET, so the path reaches the server exactly as written (fetch would normalize dot segments). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ hostname, port, path, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the server process", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Views wait a whole minute in memory: only the shutdown can have written them.
    server = await startServer({
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "solo",
      SKILLGATE_INIT_API_KEY: KEY,
      SKILLGATE_VIEW_FLUSH_MS: "60000",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses paths that try to leave a skill folder, however they are spelled", async () => {
    for (const path of [
      "/api/v1/skills/writing-plans/files/..%2F..%2F..%2Fpackage.json",
      "/api/v1/skills/writing-plans/files/%2e%2e/%2e%2e/package.json",
      "/api/v1/skills/writing-plans/files/../../../../package.json",
      "/api/v1/skills/writing-plans/files/%2Fetc%2Fpasswd",
    ]) {
      const res = await rawGet(server.url, path);
      expect([400, 404], `${path} → ${res.status}`).toContain(res.status);
      expect(res.body).not.toContain('"name": "skillgate"');
    }
    const encoded = await rawGet(server.url, "/api/v1/skills/writing-plans/files/..%2F..%2F..%2Fpackage.json");
    expect(encoded.status).toBe(400);
    expect(JSON.parse(encoded.body).error.code).toBe("InvalidPath");
  });

  it("refuses a second process on the same PGlite folder with a clear message", async () => {
    await expect(openDatabase({ dataDir: server.dataDir })).rejects.toThrow(
      `is in use by process ${server.process.pid}. Stop that process, or set SKILLGATE_DATA_DIR to another folder.`,
    );
  });

  it("writes buffered views on a clean shutdown", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/v1/skills/writing-plans`, {
        headers: { authorization: `Bearer ${KEY}`, "x-agent-session": "lifecycle" },
      });
      expect(res.status).toBe(200);
    }
    expect(await server.stop()).toBe(143);
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      const views = await database.db.select().from(skillViews);
      expect(views.map((v) => [v.skillName, v.sessionId, v.version])).toEqual(Array(5).fill(["writing-plans", "lifecycle", 1]));
    } finally {
      await database.close();
    }
  });
});

describe("sign-in with GitHub configured", () => {
  it("offers GitHub instead of email and password", async () => {
    const server = await startServer({ SKILLGATE_DEMO: "0", AUTH_GITHUB_ID: "test-client-id", AUTH_GITHUB_SECRET: "test-client-secret" });
    try {
      const html = await (await fetch(`${server.url}/signin`)).text();
      expect(html).toContain("Sign in with GitHub");
      expect(html).not.toContain('name="password"');
      const providers = await (await fetch(`${server.url}/api/auth/providers`)).json();
      expect(Object.keys(providers)).toEqual(["github"]);
      expect(server.output()).not.toContain("test-client-secret");
    } finally {
      await server.stop();
    }
  });
});
