import { describe, expect, it } from "vitest";
import { fetchApp, useTestApp } from "../helpers/app";
import { useMcpClients, type ToolAnswer } from "../helpers/mcp-client";

/**
 * The exact texts the MCP tools answer agents (docs/mcp.md#tools), and a bad key's refusal at the
 * endpoint: what mcp-parity.test.ts does not pin down, since it checks that each tool answers as
 * its REST route does, not what either says. These checks ran against the built server in the
 * browser suite (tests/browser/mcp.test.ts keeps one smoke test with the official client there);
 * the route handlers are the same, so they run here in-process, on PGlite as that server did.
 */
describe("the MCP endpoint's answers, word for word", () => {
  const t = useTestApp("pglite");
  const connect = useMcpClients("mcp-endpoint-test");

  /** A tool's answer as agents read it: the text, and whether it is a refusal. */
  const said = ({ text, isError }: ToolAnswer) => ({ text, ok: !isError });

  /** The REST answer as a tool would say it: the text body, or the error's message. */
  async function rest(method: string, url: string, json?: unknown): Promise<{ text: string; ok: boolean }> {
    const res = await t.call(method, url, { json });
    const text = await res.text();
    if (res.ok) return { text, ok: true };
    return { text: (JSON.parse(text) as { error: { message: string } }).error.message, ok: false };
  }

  it("names a skill that is not there, and how to find one", async () => {
    const tool = await connect(t.alpha.key);
    const missing = { ok: false, text: "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills." };
    expect(said(await tool("skill_view", { name: "no-such-skill" }))).toEqual(missing);
    expect(await rest("GET", "/api/v1/skills/no-such-skill")).toEqual(missing);
  });

  it("writes learned skills with the texts REST answers: created, updated, promoted, archived, and the refusals", async () => {
    const tool = await connect(t.alpha.key);
    const manage = async (args: Record<string, unknown>) => said(await tool("skill_manage", args));
    expect(
      await manage({
        action: "create",
        name: "mcp-made",
        description: "Made over MCP. Use when testing MCP.",
        body: "# MCP\n",
        reason: "a test",
      }),
    ).toEqual({ ok: true, text: '{"name":"mcp-made","version":1,"status":"draft"}' });
    expect(
      await rest("POST", "/api/v1/skills", {
        name: "rest-made",
        description: "Made over REST. Use when testing REST.",
        body: "# REST\n",
        reason: "a test",
      }),
    ).toEqual({ ok: true, text: '{"name":"rest-made","version":1,"status":"draft"}' });
    // A built-in skill's name is taken, on both.
    expect(await manage({ action: "create", name: "writing-plans", description: "x. Use when y.", body: "b" })).toEqual(
      await rest("POST", "/api/v1/skills", { name: "writing-plans", description: "x. Use when y.", body: "b" }),
    );
    expect(await manage({ action: "create", name: "mcp-made", description: "x. Use when y.", body: "b" })).toEqual({
      ok: false,
      text: 'Error [SkillExists]: learned skill "mcp-made" already exists',
    });
    expect(await manage({ action: "update", name: "mcp-made", body: "# MCP v2\n", expectedVersion: 1 })).toEqual({
      ok: true,
      text: '{"name":"mcp-made","version":2}',
    });
    expect(await manage({ action: "update", name: "writing-plans", body: "x", expectedVersion: 1 })).toEqual({
      ok: false,
      text: 'Error [BuiltInImmutable]: "writing-plans" is a built-in skill',
    });
    expect(await manage({ action: "promote", name: "mcp-made" })).toEqual({
      ok: true,
      text: '{"name":"mcp-made","version":2,"status":"active","served":{"version":2,"why":"latest"}}',
    });
    expect(await manage({ action: "delete", name: "rest-made" })).toEqual({ ok: true, text: '{"name":"rest-made","status":"archived"}' });
    const viewed = said(await tool("skill_view", { name: "mcp-made" }));
    expect(viewed).toEqual({ ok: true, text: "[skill mcp-made | learned | v2]\n# MCP v2\n" });
    expect(await rest("GET", "/api/v1/skills/mcp-made")).toEqual(viewed);
  });

  it("keeps the experiment ledger with the texts REST answers: the record, a missing field, a second verdict, the list", async () => {
    const tool = await connect(t.alpha.key);
    const experiment = async (args: Record<string, unknown>) => said(await tool("experiment", { slug: "mcp-plan", ...args }));
    const hypothesis = await experiment({ action: "record-hypothesis", text: "MCP and REST agree" });
    expect(JSON.parse(hypothesis.text!)).toMatchObject({
      record: { id: "H1", kind: "hypothesis", text: "MCP and REST agree" },
      ledger: "sci.mcp-plan/ledger",
    });
    const missing = await experiment({ action: "record-prediction", id: "H1", text: "they agree" });
    expect(missing).toEqual({ ok: false, text: "Error [MissingField]: record-prediction requires falsifiedBy" });
    expect(await rest("POST", "/api/v1/ledger/mcp-plan", { action: "record-prediction", id: "H1", text: "they agree" })).toEqual(missing);
    expect((await experiment({ action: "record-prediction", id: "H1", text: "they agree", falsifiedBy: "npm test -- mcp" })).ok).toBe(true);
    expect((await experiment({ action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "12 passed" })).ok).toBe(true);
    expect(await experiment({ action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "again" })).toEqual({
      ok: false,
      text: "Error [PredictionAlreadyJudged]: P1 already has a verdict",
    });
    const listed = await experiment({ action: "list" });
    expect(listed.text!.split("\n")[0]).toBe("[experiment] sci.mcp-plan/ledger: 3 record(s), 0 open prediction(s)");
    expect(await rest("POST", "/api/v1/ledger/mcp-plan", { action: "list" })).toEqual(listed);
  });

  it("records an observation with its ids, and names a skill that is not there", async () => {
    const tool = await connect(t.alpha.key);
    expect(
      (
        await rest("POST", "/api/v1/skills", {
          name: "mcp-made",
          description: "Made over MCP. Use when testing MCP.",
          body: "# MCP\n",
          status: "active",
        })
      ).ok,
    ).toBe(true);
    const made = said(await tool("record_observation", { skill: "mcp-made", task: "try it", category: "mcp", outcome: "success" }));
    expect(made.ok).toBe(true);
    expect(made.text).toMatch(/^\{"ids":\[\d+\]\}$/);
    const ghost = { skill: "ghost-skill", task: "try it", category: "mcp", outcome: "failure" };
    const refused = said(await tool("record_observation", ghost));
    expect(refused).toEqual({
      ok: false,
      text: "Error [SkillNotFound]: No skill named 'ghost-skill'. Use skill_list to see available skills.",
    });
    expect(await rest("POST", "/api/v1/observations", ghost)).toEqual(refused);
  });

  it("refuses a key that is not one: the client cannot connect, and the endpoint says why in the header and the envelope", async () => {
    await expect(connect("sg_not_a_key")).rejects.toThrow();
    const res = await fetchApp(
      new Request("http://skillgate.test/api/mcp", {
        method: "POST",
        headers: {
          authorization: "Bearer sg_not_a_key",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: "{}",
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="key not valid or revoked"');
    expect(await res.json()).toEqual({
      error: { code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" },
    });
  });
});
