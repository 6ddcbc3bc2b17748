import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { mcpSessions, skillViews } from "@/db/schema";
import { installApp } from "@/lib/current-app";
import { createApiKey } from "@/lib/auth/api-keys";
import { anotherInstance, fetchApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * MCP sessions live in the database (issue 14): a session opened through one instance continues
 * through another, ends for all when the client ends it, and belongs to the key that opened it.
 */
describe.each(testDbKinds)("MCP sessions across instances on %s", (kind) => {
  const t = useTestApp(kind);
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(key: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const client = new Client({ name: "sessions-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (url, init) => fetchApp(new Request(url, init)),
    });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** A raw JSON-RPC call in a session, as a client that kept the id would send it. */
  const inSession = (key: string, sessionId: string) =>
    fetchApp(
      new Request("http://skillgate.test/api/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
      }),
    );
  const notFound = { jsonrpc: "2.0", error: { code: -32001, message: "Session not found: initialize a new session" }, id: null };

  it("continues a session opened through one instance through another, with its views, and ends it for both", async () => {
    const { client, transport } = await connect(t.alpha.key);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const other = anotherInstance(t.app);
    const putBack = installApp(other);
    try {
      const viewed = (await client.callTool({ name: "skill_view", arguments: { name: "writing-plans" } })) as { isError?: boolean };
      expect(viewed.isError).toBeUndefined();
      await other.views.flush();
      const views = await t.app.db.select().from(skillViews).where(eq(skillViews.sessionId, sessionId));
      expect(views.map((view) => [view.skillName, view.teamId])).toEqual([["writing-plans", t.alpha.team.id]]);
      await transport.terminateSession();
      expect(await t.app.db.select().from(mcpSessions)).toEqual([]);
    } finally {
      putBack();
      await other.close();
    }
    const ended = await inSession(t.alpha.key, sessionId);
    expect(ended.status).toBe(404);
    expect(await ended.json()).toEqual(notFound);
  });

  it("refuses a session continued with another key of the same team, and one idle for 30 minutes", async () => {
    const { transport } = await connect(t.alpha.key);
    const sessionId = transport.sessionId!;
    const { key: otherKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "other", scopes: ["read"] });
    const stolen = await inSession(otherKey, sessionId);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual(notFound);
    expect((await inSession(t.alpha.key, sessionId)).status).toBe(200);

    await t.app.db
      .update(mcpSessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60 * 1000) })
      .where(eq(mcpSessions.id, sessionId));
    const idle = await inSession(t.alpha.key, sessionId);
    expect(idle.status).toBe(404);
    expect(await idle.json()).toEqual(notFound);
  });

  it("opens a session only with an initialize request", async () => {
    const res = await fetchApp(
      new Request("http://skillgate.test/api/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${t.alpha.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Bad Request: no session; open one with an initialize request" },
      id: null,
    });
    expect(await t.app.db.select().from(mcpSessions)).toEqual([]);
  });
});
