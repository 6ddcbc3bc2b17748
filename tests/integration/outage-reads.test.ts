import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { errorOf, fetchApp, startTestApp, type TestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { startFreezingProxy, type FreezingProxy } from "../helpers/freezing-proxy";
import { waitUntil } from "../helpers/wait";

/**
 * docs/outages.md#outages-and-stalls: while the database is away, what agents read keeps being served
 * from what the instance already holds, marked stale, over REST and MCP alike; writes answer 503
 * with Retry-After, and MCP gives REST's message; views seen meanwhile are written after. On
 * PostgreSQL the database stalls (a proxy that stops forwarding, as `kill -STOP` does) and comes
 * back; PGlite, in the process, can only go away: it is closed under the app.
 */

const UNAVAILABLE = { code: "DatabaseUnavailable", message: "the database is unavailable; try again shortly" };
const STEADY_MD = "---\nname: steady\ndescription: Steady. Use when testing outages.\n---\n# Steady\nSee references/guide.md.\n";
const GUIDE = "# Guide\nStay calm.\n";
const OTHER_MD = "---\nname: unread\ndescription: Unread. Use when nobody read it yet.\n---\n# Unread\n";

/** The reads an agent makes, REST paths as an agent sends them (the skills index through the key and through an install link). */
function agentReads(linkToken: string): string[] {
  return [
    "/api/v1/listing",
    "/api/v1/listing?full=true",
    "/api/v1/skills/steady",
    "/api/v1/skills/steady/files/references/guide.md",
    "/.well-known/skills/index.json",
    "/.well-known/skills/steady/SKILL.md",
    `/i/${linkToken}/.well-known/skills/index.json`,
  ];
}

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe.each(testDbKinds)("reads while the %s database is away", (kind) => {
  let proxy: FreezingProxy | undefined;
  let t: TestApp & { close(): Promise<void> };
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
    proxy?.thaw();
    await t?.close().catch(() => {
      // PGlite was closed by the test itself.
    });
  });
  afterAll(async () => proxy?.close());

  async function start() {
    t = await startTestApp(kind, {
      databaseVia: async (url) => {
        proxy = await startFreezingProxy(url);
        return proxy.url;
      },
    });
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "steady/SKILL.md", content: STEADY_MD },
          { path: "steady/references/guide.md", content: GUIDE },
          { path: "unread/SKILL.md", content: OTHER_MD },
        ],
      },
    });
    expect(sync.status).toBe(200);
    const link = (await (await t.call("POST", "/api/v1/install-links")).json()) as { token: string };
    return link.token;
  }

  async function mcpClient(): Promise<Client> {
    const client = new Client({ name: "outage-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
        requestInit: { headers: { authorization: `Bearer ${t.alpha.key}` } },
        fetch: (url, init) => fetchApp(new Request(url, init)),
      }),
    );
    clients.push(client);
    return client;
  }

  /** Takes the database away: frozen (PostgreSQL), or closed (PGlite); then waits until the instance has noticed. */
  async function takeDatabaseAway(): Promise<void> {
    if (kind === "postgres") proxy!.freeze();
    else await t.app.database.close();
    // A frozen server is noticed by the listening connection's ping (within 8 s); until then the
    // key cache answers as usual, since it would hear of any change.
    await waitUntil(
      async () => t.app.database.teamChanges?.live,
      (live) => live === false,
      { what: "the instance to notice the database is away", intervalMs: 100, timeoutMs: 15_000 },
    );
  }

  it("serves every read an agent made from memory, marked stale, answers writes 503, and writes the views after", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const token = await start();
    const mcp = await mcpClient();
    const fresh = new Map<string, string>();
    // Each read twice: the second answer, with the same ETag, only confirms the kept one.
    for (const path of [...agentReads(token), ...agentReads(token)]) {
      const res = await t.call("GET", path, { key: path.startsWith("/i/") ? null : undefined });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-skillgate-stale"), path).toBeNull();
      const text = await res.text();
      if (fresh.has(path)) expect(text, path).toBe(fresh.get(path));
      fresh.set(path, text);
    }
    const toolCalls: [string, Record<string, unknown>][] = [
      ["skill_list", {}],
      ["skill_view", { name: "steady" }],
      ["skill_file", { name: "steady", path: "references/guide.md" }],
    ];
    const freshTools = new Map<string, ToolResult>();
    for (const [name, args] of toolCalls) freshTools.set(name, (await mcp.callTool({ name, arguments: args })) as ToolResult);
    // A fresh answer says what was served and why (docs/learned-skills.md#one-served-version), and nothing of being stale.
    expect(freshTools.get("skill_view")!._meta).toEqual({ "skillgate/served": { version: 1, why: "latest" } });

    await takeDatabaseAway();

    for (const path of agentReads(token)) {
      const { value: res, ms } = await timed(t.call("GET", path, { key: path.startsWith("/i/") ? null : undefined }));
      expect(ms, path).toBeLessThan(5000);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-skillgate-stale"), path).toMatch(/^\d+$/);
      expect(await res.text(), path).toBe(fresh.get(path));
    }
    for (const [name, args] of toolCalls) {
      const { value: result, ms } = await timed(mcp.callTool({ name, arguments: args }) as Promise<ToolResult>);
      expect(ms, name).toBeLessThan(5000);
      expect(result.isError ?? false, name).toBe(false);
      expect(result.content, name).toEqual(freshTools.get(name)!.content);
      expect(result._meta?.["skillgate/stale"], name).toEqual(expect.any(Number));
      expect(result._meta?.["skillgate/served"], name).toEqual(freshTools.get(name)!._meta?.["skillgate/served"]);
    }

    // What this instance never read, and every write: 503 over REST, REST's message over MCP.
    const writes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        timed(
          t.call("POST", "/api/v1/skills", { json: { name: `during-${i}`, description: "Made during an outage. Use never.", body: "x" } }),
        ),
      ),
    );
    for (const { value: res, ms } of writes) {
      expect(ms).toBeLessThan(5000);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await errorOf(res)).toEqual(UNAVAILABLE);
    }
    // A file of a version this instance holds is known from memory, and so is one it does not have.
    const missing = await t.call("GET", "/api/v1/skills/steady/files/never.md");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-skillgate-stale")).toMatch(/^\d+$/);
    expect(await errorOf(missing)).toEqual({ code: "FileNotFound", message: 'skill "steady" has no file "never.md"' });
    const neverRead = await t.call("GET", "/api/v1/skills/unread/files/never.md");
    expect(neverRead.status).toBe(503);
    expect(await errorOf(neverRead)).toEqual(UNAVAILABLE);
    for (const [name, args] of [
      ["skill_manage", { action: "create", name: "during-mcp", description: "Made during an outage. Use never.", body: "x" }],
      ["skill_file", { name: "unread", path: "never.md" }],
      ["record_observation", { skill: "steady", task: "t", category: "c", outcome: "success" }],
    ] as const) {
      const result = (await mcp.callTool({ name, arguments: args })) as ToolResult;
      expect(result, name).toEqual({ content: [{ type: "text", text: UNAVAILABLE.message }], isError: true });
    }
    // Two skill_views while away (REST and MCP) wait with the three made before.
    expect(t.app.views.pending).toBe(5);

    if (kind === "pglite") return; // closed for good: nothing comes back
    proxy!.thaw();
    await waitUntil(
      async () => (await t.call("GET", "/api/health", { key: null })).status,
      (status) => status === 200,
      { what: "health to answer 200 once the database answers again", intervalMs: 100 },
    );
    await t.app.views.flush();
    const usage = (await (await t.call("GET", "/api/v1/usage")).json()) as { skills: { name: string; views7d: number }[] };
    expect(usage.skills.find((skill) => skill.name === "steady")?.views7d).toBe(5);
    // No write that answered 503 applied later.
    const catalog = (await (await t.call("GET", "/api/v1/skills")).json()) as { skills: { name: string }[] };
    expect(catalog.skills.filter((skill) => skill.name.startsWith("during-"))).toEqual([]);
    const again = await t.call("GET", "/api/v1/skills/steady");
    expect(again.headers.get("x-skillgate-stale")).toBeNull();
    vi.restoreAllMocks();
  });
});
