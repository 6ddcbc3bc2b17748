import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MCP_KEY } from "./server";

const baseUrl = inject("baseUrl");

async function connect(key: string) {
  const client = new Client({ name: "skillgate-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** The REST answer as a string: the text body, or the error's message. */
async function rest(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ text: string; ok: boolean }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${MCP_KEY}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.ok) return { text, ok: true };
  return { text: (JSON.parse(text) as { error: { message: string } }).error.message, ok: false };
}

describe("the MCP endpoint with the official MCP client", () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
    return { text: result.content[0]!.text, ok: !result.isError };
  };

  beforeAll(async () => {
    ({ client, transport } = await connect(MCP_KEY));
  });
  afterAll(async () => client?.close());

  it("offers the six tools of docs/mcp.md#tools, each described for agents", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "skill_list",
      "skill_view",
      "skill_file",
      "skill_manage",
      "experiment",
      "record_observation",
    ]);
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(80);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers skill_list and skill_view with the REST strings, and records the view with the MCP session", async () => {
    expect(await tool("skill_list", {})).toEqual(await rest("GET", "/api/v1/listing?full=true"));
    expect(await tool("skill_view", { name: "writing-plans" })).toEqual(
      await rest("GET", "/api/v1/skills/writing-plans", undefined, { "x-agent-session": "rest-session" }),
    );
    expect(await tool("skill_view", { name: "no-such-skill" })).toEqual({
      ok: false,
      text: "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills.",
    });
    expect(await rest("GET", "/api/v1/skills/no-such-skill")).toEqual({
      ok: false,
      text: "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills.",
    });
    const usage = JSON.parse((await rest("GET", "/api/v1/usage")).text);
    // One view through MCP (its session) and one through REST (X-Agent-Session): two sessions.
    expect(usage.skills.find((s: { name: string }) => s.name === "writing-plans")).toMatchObject({ views30d: 2, sessions: 2 });
  });

  it("writes learned skills exactly as the REST API does, errors included", async () => {
    const created = await tool("skill_manage", {
      action: "create",
      name: "mcp-made",
      description: "Made over MCP. Use when testing MCP.",
      body: "# MCP\n",
      reason: "a test",
    });
    expect(created).toEqual({ ok: true, text: '{"name":"mcp-made","version":1,"status":"draft"}' });
    const restCreated = await rest("POST", "/api/v1/skills", {
      name: "rest-made",
      description: "Made over REST. Use when testing REST.",
      body: "# REST\n",
      reason: "a test",
    });
    expect(restCreated).toEqual({ ok: true, text: '{"name":"rest-made","version":1,"status":"draft"}' });
    expect(await tool("skill_manage", { action: "create", name: "writing-plans", description: "x. Use when y.", body: "b" })).toEqual(
      await rest("POST", "/api/v1/skills", { name: "writing-plans", description: "x. Use when y.", body: "b" }),
    );
    expect((await tool("skill_manage", { action: "create", name: "mcp-made", description: "x. Use when y.", body: "b" })).text).toBe(
      'Error [SkillExists]: learned skill "mcp-made" already exists',
    );
    expect(await tool("skill_manage", { action: "update", name: "mcp-made", body: "# MCP v2\n", expectedVersion: 1 })).toEqual({
      ok: true,
      text: '{"name":"mcp-made","version":2}',
    });
    expect(await tool("skill_manage", { action: "update", name: "mcp-made", body: "# stale\n", expectedVersion: 1 })).toEqual(
      await rest("PUT", "/api/v1/skills/mcp-made", { body: "# stale\n", expectedVersion: 1 }),
    );
    expect(await tool("skill_manage", { action: "update", name: "writing-plans", body: "x", expectedVersion: 1 })).toEqual({
      ok: false,
      text: 'Error [BuiltInImmutable]: "writing-plans" is a built-in skill',
    });
    expect(await tool("skill_manage", { action: "promote", name: "mcp-made" })).toEqual({
      ok: true,
      text: '{"name":"mcp-made","version":2,"status":"active","served":{"version":2,"why":"latest"}}',
    });
    expect(await tool("skill_manage", { action: "lint", description: "This skill helps you." })).toEqual(
      await rest("POST", "/api/v1/lint", { description: "This skill helps you." }),
    );
    expect(await tool("skill_manage", { action: "lint", name: "mcp-made" })).toEqual(await rest("GET", "/api/v1/skills/mcp-made/lint"));
    expect(await tool("skill_manage", { action: "delete", name: "rest-made" })).toEqual({
      ok: true,
      text: '{"name":"rest-made","status":"archived"}',
    });
    const viewed = await tool("skill_view", { name: "mcp-made" });
    expect(viewed).toEqual(await rest("GET", "/api/v1/skills/mcp-made"));
    expect(viewed.text).toBe("[skill mcp-made | learned | v2]\n# MCP v2\n");
  });

  it("keeps the experiment ledger exactly as the REST API does", async () => {
    const h = await tool("experiment", { action: "record-hypothesis", slug: "mcp-plan", text: "MCP and REST agree" });
    expect(JSON.parse(h.text)).toMatchObject({
      record: { id: "H1", kind: "hypothesis", text: "MCP and REST agree" },
      ledger: "sci.mcp-plan/ledger",
    });
    const missing = await tool("experiment", { action: "record-prediction", slug: "mcp-plan", id: "H1", text: "they agree" });
    expect(missing).toEqual({ ok: false, text: "Error [MissingField]: record-prediction requires falsifiedBy" });
    expect(missing).toEqual(await rest("POST", "/api/v1/ledger/mcp-plan", { action: "record-prediction", id: "H1", text: "they agree" }));
    await tool("experiment", {
      action: "record-prediction",
      slug: "mcp-plan",
      id: "H1",
      text: "they agree",
      falsifiedBy: "npm test -- mcp",
    });
    await tool("experiment", { action: "record-verdict", slug: "mcp-plan", id: "P1", verdict: "confirmed", evidence: "12 passed" });
    const again = await tool("experiment", {
      action: "record-verdict",
      slug: "mcp-plan",
      id: "P1",
      verdict: "confirmed",
      evidence: "again",
    });
    expect(again).toEqual({ ok: false, text: "Error [PredictionAlreadyJudged]: P1 already has a verdict" });
    const listed = await tool("experiment", { action: "list", slug: "mcp-plan" });
    expect(listed).toEqual(await rest("POST", "/api/v1/ledger/mcp-plan", { action: "list" }));
    expect(listed.text.split("\n")[0]).toBe("[experiment] sci.mcp-plan/ledger: 3 record(s), 0 open prediction(s)");
  });

  it("records observations exactly as the REST API does", async () => {
    const made = await tool("record_observation", { skill: "mcp-made", task: "try it", category: "mcp", outcome: "success" });
    expect(made.text).toMatch(/^\{"ids":\[\d+\]\}$/);
    const bad = await tool("record_observation", { skill: "ghost-skill", task: "try it", category: "mcp", outcome: "failure" });
    expect(bad).toEqual(
      await rest("POST", "/api/v1/observations", { skill: "ghost-skill", task: "try it", category: "mcp", outcome: "failure" }),
    );
    expect(bad.text).toBe("Error [SkillNotFound]: No skill named 'ghost-skill'. Use skill_list to see available skills.");
    const wrongOutcome = { skill: "mcp-made", task: "try it", category: "mcp", outcome: "meh" };
    expect(await tool("record_observation", wrongOutcome)).toEqual(await rest("POST", "/api/v1/observations", wrongOutcome));
  });

  it("refuses a bad key, and a session used with another key", async () => {
    await expect(connect("sg_not_a_key")).rejects.toThrow();
    const res = await fetch(`${baseUrl}/api/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer sg_not_a_key", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="key not valid or revoked"');
    expect(await res.json()).toEqual({
      error: { code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" },
    });
  });
});
