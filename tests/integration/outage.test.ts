import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { errorOf, useTestApp } from "../helpers/app";
import { startFreezingProxy, type FreezingProxy } from "../helpers/freezing-proxy";
import { waitUntil } from "../helpers/wait";

/**
 * Resolves with the response, or with "no answer" once `ms` have passed: the bound is what is
 * tested (an answer within 5 s while the database is frozen), not a pause.
 */
async function within<T>(ms: number, pending: Promise<T>): Promise<T | "no answer"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"no answer">((resolve) => (timer = setTimeout(() => resolve("no answer"), ms)));
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)("a PostgreSQL server that stops answering", () => {
  let proxy: FreezingProxy;
  // Registered before the app's hooks so that it runs after them: the database closes through the proxy first.
  afterAll(async () => {
    proxy?.thaw();
    await proxy?.close();
  });
  const t = useTestApp("postgres", {
    databaseVia: async (url) => {
      proxy = await startFreezingProxy(url);
      return proxy.url;
    },
  });
  beforeEach(async () => {
    const res = await t.call("POST", "/api/v1/skills", {
      json: { name: "steady", description: "Steady. Use when testing outages.", body: "# Steady\n", status: "active" },
    });
    expect(res.status).toBe(201);
  });

  it("answers health, the listing and skill_view with 503 within 5 s, then recovers without a restart", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await t.call("GET", "/api/health", { key: null })).status).toBe(200);
    proxy.freeze();
    try {
      const health = await within(5000, t.call("GET", "/api/health", { key: null }));
      expect(health).not.toBe("no answer");
      expect((health as Response).status).toBe(503);
      // Asked on a connection of its own (not behind the pool's queue), and saying what failed.
      expect(await (health as Response).json()).toEqual({
        status: "unavailable",
        database: { state: "down", error: "the database did not answer a probe within 1500 ms" },
      });
      for (const path of ["/api/v1/listing", "/api/v1/skills/steady"]) {
        const res = await within(5000, t.call("GET", path));
        expect(res, path).not.toBe("no answer");
        expect((res as Response).status).toBe(503);
        expect((res as Response).headers.get("retry-after")).toBe("5");
        expect(await errorOf(res as Response)).toEqual({
          code: "DatabaseUnavailable",
          message: "the database is unavailable; try again shortly",
        });
      }
    } finally {
      proxy.thaw();
    }
    await waitUntil(
      async () => (await t.call("GET", "/api/health", { key: null })).status,
      (status) => status === 200,
      { what: "health to answer 200 once the database answers again", intervalMs: 50 },
    );
    expect(await (await t.call("GET", "/api/v1/skills/steady")).text()).toBe("[skill steady | learned | v1]\n# Steady\n");
    vi.restoreAllMocks();
  });
});

describe("rate limits", () => {
  const t = useTestApp("pglite", { rateLimitPerMinute: 3 });

  it("answers 429 RateLimited with the real seconds to wait, on REST and on the MCP endpoint", async () => {
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/api/v1/listing")).status).toBe(200);
    for (const [method, path, json] of [
      ["GET", "/api/v1/listing", undefined],
      ["POST", "/api/v1/lint", { description: "x" }],
      [
        "POST",
        "/api/mcp",
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        },
      ],
    ] as const) {
      const res = await t.call(method, path, { json, headers: { accept: "application/json, text/event-stream" } });
      expect(res.status, path).toBe(429);
      const seconds = Number(res.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(await errorOf(res)).toEqual({ code: "RateLimited", message: `too many requests for this API key; retry in ${seconds} s` });
    }
    // Another key has its own minute.
    expect((await t.call("GET", "/api/v1/listing", { key: t.beta.key })).status).toBe(200);
  });
});
