import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { fetchApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * The MCP tools are built from the REST contracts (docs/mcp.md#tools): every tool, given what its REST route is
 * given, answers the same text — the text body, the JSON body as serialized, or the error's
 * message — refusals included. The real MCP client talks to the app in-process.
 */

type ToolAnswer = { text: string; isError: boolean };

describe.each(testDbKinds)("MCP tools and their REST routes on %s", (kind) => {
  const t = useTestApp(kind);
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** The real MCP client, talking to the app in-process; its responses checked like every other. */
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "parity-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (url, init) => fetchApp(new Request(url, init)),
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function mcp(key: string) {
    const client = await connect(key);
    return async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
      const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
      return { text: result.content[0]!.text, isError: result.isError === true };
    };
  }

  /** What REST answers, as the tool would say it: the text, the JSON as serialized, or the error's message. */
  async function rest(method: string, url: string, options: { json?: unknown; key?: string } = {}): Promise<ToolAnswer> {
    const res = await t.call(method, url, options);
    const text = await res.text();
    if (res.status >= 400) return { text: (JSON.parse(text) as { error: { message: string } }).error.message, isError: true };
    return {
      text: res.headers.get("content-type")?.startsWith("application/json") ? JSON.stringify(JSON.parse(text)) : text,
      isError: false,
    };
  }

  const skill = {
    name: "parity-skill",
    description: "Checks parity. Use when comparing MCP and REST.",
    body: "# Parity\r\nKeep\tbytes ✓\n",
  };

  it("lists every tool with annotations, and input schemas that carry the contracts' enums and bounds", async () => {
    const { tools } = await (await connect(t.alpha.key)).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "skill_list",
      "skill_view",
      "skill_file",
      "skill_manage",
      "experiment",
      "record_observation",
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.skill_list!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.skill_view!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.skill_file!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.skill_manage!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.experiment!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const props = (name: string) => (byName[name]!.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(props("experiment").action!.enum).toEqual([
      "record-hypothesis",
      "record-prediction",
      "record-verdict",
      "record-observation",
      "record-conclusion",
      "record-skip",
      "list",
    ]);
    expect(props("experiment").verdict!.enum).toEqual(["confirmed", "refuted", "inconclusive"]);
    expect(props("record_observation").outcome!.enum).toEqual(["success", "failure", "partial"]);
    expect(props("record_observation").score).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
    expect(props("skill_manage").reason).toMatchObject({ type: "string", maxLength: 2000 });
    expect(props("skill_view").version).toMatchObject({ type: "integer", minimum: 1 });
    // MCP cannot send headers: no tool tells an agent to.
    expect(JSON.stringify(tools)).not.toContain("If-Match");
  });

  it("answers skill_view and skill_list with the REST texts, refusals included", async () => {
    expect((await rest("POST", "/api/v1/skills", { json: { ...skill, status: "active" } })).isError).toBe(false);
    const tool = await mcp(t.alpha.key);
    expect(await tool("skill_list")).toEqual(await rest("GET", "/api/v1/listing?full=true"));
    expect(await tool("skill_view", { name: "parity-skill" })).toEqual(await rest("GET", "/api/v1/skills/parity-skill"));
    expect(await tool("skill_view", { name: "parity-skill", version: 1 })).toEqual(
      await rest("GET", "/api/v1/skills/parity-skill?version=1"),
    );
    for (const [args, url] of [
      [{ name: "Bad_Name" }, "/api/v1/skills/Bad_Name"],
      [{ name: "no-such-skill" }, "/api/v1/skills/no-such-skill"],
      [{ name: "parity-skill", version: 9 }, "/api/v1/skills/parity-skill?version=9"],
      [{ name: "parity-skill", version: 0 }, "/api/v1/skills/parity-skill?version=0"],
    ] as const) {
      const answer = await tool("skill_view", args);
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      expect(answer, JSON.stringify(args)).toEqual(await rest("GET", url));
    }
  });

  it("answers skill_list with the full catalog (docs/mcp.md#tools): every description whole, no marker, whatever the listing cuts", async () => {
    const long = `Checks long descriptions end to end. Use when a description runs past the team's descMax and its when clause would be cut: ${"x".repeat(200)}`;
    expect((await rest("POST", "/api/v1/skills", { json: { ...skill, description: long, status: "active" } })).isError).toBe(false);
    const cut = await rest("GET", "/api/v1/listing");
    expect(cut.text).toContain(`- parity-skill: ${long.slice(0, 60)}…`);
    const full = await rest("GET", "/api/v1/listing?full=true");
    const lines = full.text.split("\n");
    expect(lines[0]).toBe("[skills listing — prefer a matching skill over improvising; load bodies with skill_view]");
    expect(lines).toContain(`- parity-skill: ${long}`);
    expect(full.text).not.toContain("[skills listing truncated");
    // The seven built-in skills and this one.
    expect(lines.filter((line) => line.startsWith("- ")).length).toBe(8);
    const tool = await mcp(t.alpha.key);
    expect(await tool("skill_list")).toEqual(full);
    const res = await t.call("GET", "/api/v1/listing?full=true");
    expect(res.headers.get("x-listing-cap")).toBeNull();
    expect(res.headers.get("x-skills-dropped-descriptions")).toBe("0");
    const json = (await (await t.call("GET", "/api/v1/listing?full=true&format=json")).json()) as {
      text: string;
      cap: unknown;
      descMax: unknown;
    };
    expect([json.text, json.cap, json.descMax]).toEqual([full.text, null, null]);
    const refused = await t.call("GET", "/api/v1/listing?full=true&cap=500");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: { code: "InvalidQuery", message: "full=true renders the whole catalog (no cap, no descMax): drop cap and descMax" },
    });
  });

  it("answers skill_file as GET …/files/<path> does: text as text, binary as a resource, and the right path for a wrong case", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const files = [
      {
        path: "filed/SKILL.md",
        content: "---\nname: filed\ndescription: Has files. Use when reading files.\n---\n# Filed\nSee references/forms.md\n",
      },
      { path: "filed/references/forms.md", content: "# Forms\r\nfill them ✓\n" },
      { path: "filed/assets/logo.png", content: png.toString("base64"), encoding: "base64" },
    ];
    expect((await t.call("POST", "/api/v1/skills/sync", { json: { files } })).status).toBe(200);
    const tool = await mcp(t.alpha.key);
    expect(await tool("skill_file", { name: "filed", path: "references/forms.md" })).toEqual(
      await rest("GET", "/api/v1/skills/filed/files/references/forms.md"),
    );
    expect((await tool("skill_file", { name: "filed", path: "references/forms.md" })).text).toBe("# Forms\r\nfill them ✓\n");
    const client = clients.at(-1)!;
    const binary = (await client.callTool({ name: "skill_file", arguments: { name: "filed", path: "assets/logo.png" } })) as {
      content: { type: string; resource: { uri: string; mimeType: string; blob: string } }[];
    };
    expect(binary.content).toEqual([
      {
        type: "resource",
        resource: { uri: "skillgate://skills/filed/files/assets/logo.png", mimeType: "image/png", blob: png.toString("base64") },
      },
    ]);
    for (const [args, url] of [
      [{ name: "filed", path: "references/FORMS.md" }, "/api/v1/skills/filed/files/references/FORMS.md"],
      [{ name: "filed", path: "../secrets" }, "/api/v1/skills/filed/files/..%2Fsecrets"],
      [{ name: "filed", path: "nothing.md" }, "/api/v1/skills/filed/files/nothing.md"],
      [{ name: "no-such-skill", path: "a.md" }, "/api/v1/skills/no-such-skill/files/a.md"],
    ] as const) {
      const answer = await tool("skill_file", args);
      expect(answer.isError, JSON.stringify(args)).toBe(true);
      expect(answer, JSON.stringify(args)).toEqual(await rest("GET", url));
    }
    expect((await tool("skill_file", { name: "filed", path: "references/FORMS.md" })).text).toBe(
      'skill "filed" has no file "references/FORMS.md"; paths are case-sensitive: did you mean "references/forms.md"?',
    );
  });

  it("answers skill_manage as POST, PUT, DELETE, promote and lint do, refusals included", async () => {
    const alpha = await mcp(t.alpha.key);
    // The same writes in two teams: the REST one in beta, the tool's in alpha.
    const inBeta = { key: t.beta.key };
    expect(await alpha("skill_manage", { action: "create", ...skill })).toEqual(
      await rest("POST", "/api/v1/skills", { json: skill, ...inBeta }),
    );
    const update = { description: skill.description, body: "# Parity v2\n", expectedVersion: 1, reason: "second" };
    expect(await alpha("skill_manage", { action: "update", name: skill.name, ...update })).toEqual(
      await rest("PUT", `/api/v1/skills/${skill.name}`, { json: update, ...inBeta }),
    );
    expect(await alpha("skill_manage", { action: "promote", name: skill.name })).toEqual(
      await rest("POST", `/api/v1/skills/${skill.name}/promote`, inBeta),
    );
    expect(await alpha("skill_manage", { action: "lint", name: skill.name })).toEqual(
      await rest("GET", `/api/v1/skills/${skill.name}/lint`, inBeta),
    );
    expect(await alpha("skill_manage", { action: "lint", description: "I help you" })).toEqual(
      await rest("POST", "/api/v1/lint", { json: { description: "I help you" } }),
    );

    const refusals: [Record<string, unknown>, string, string, unknown][] = [
      [{ action: "create", ...skill, reason: "x".repeat(3000) }, "POST", "/api/v1/skills", { ...skill, reason: "x".repeat(3000) }],
      [{ action: "create", ...skill, name: "My_Skill" }, "POST", "/api/v1/skills", { ...skill, name: "My_Skill" }],
      [{ action: "create", ...skill }, "POST", "/api/v1/skills", skill],
      [{ action: "create", name: "no-body", description: "d" }, "POST", "/api/v1/skills", { name: "no-body", description: "d" }],
      [{ action: "create", ...skill, status: "live" }, "POST", "/api/v1/skills", { ...skill, status: "live" }],
      [{ action: "update", name: skill.name, ...update }, "PUT", `/api/v1/skills/${skill.name}`, update],
      [{ action: "update", name: "systematic-debugging", ...update }, "PUT", "/api/v1/skills/systematic-debugging", update],
      [
        { action: "update", name: skill.name, ...update, expectedVersion: 0 },
        "PUT",
        `/api/v1/skills/${skill.name}`,
        { ...update, expectedVersion: 0 },
      ],
      [{ action: "delete", name: "systematic-debugging" }, "DELETE", "/api/v1/skills/systematic-debugging", undefined],
      [{ action: "promote", name: "no-such-skill" }, "POST", "/api/v1/skills/no-such-skill/promote", undefined],
      [{ action: "lint", name: "Bad_Name" }, "GET", "/api/v1/skills/Bad_Name/lint", undefined],
    ];
    for (const [args, method, url, json] of refusals) {
      const answer = await alpha("skill_manage", args);
      expect(answer.isError, `${method} ${url}`).toBe(true);
      expect(answer, `${method} ${url}`).toEqual(await rest(method, url, { json, ...inBeta }));
    }
    // The one place MCP differs: it cannot send If-Match, so it is not told to.
    const { text } = await alpha("skill_manage", { action: "update", name: skill.name, body: "x" });
    expect(text).toBe("send expectedVersion: the version this change was made against");
    expect(await alpha("skill_manage", { action: "delete", name: skill.name })).toEqual(
      await rest("DELETE", `/api/v1/skills/${skill.name}`, inBeta),
    );
  });

  it("answers experiment as the ledger route does, every gate included", async () => {
    const alpha = await mcp(t.alpha.key);
    const inBeta = { key: t.beta.key };
    const append = async (body: Record<string, unknown>) => {
      const viaMcp = await alpha("experiment", { slug: "parity", ...body });
      const viaRest = await rest("POST", "/api/v1/ledger/parity", { json: body, ...inBeta });
      return { viaMcp, viaRest };
    };
    // Records carry their creation time: compare them without it.
    const withoutTime = (answer: ToolAnswer) => ({ ...answer, text: answer.text.replace(/"createdAt":"[^"]+"/, '"createdAt":"…"') });
    for (const body of [
      { action: "record-hypothesis", text: "Keys include the timestamp", skill: "systematic-debugging" },
      { action: "record-prediction", id: "H1", text: "Hit rate rises", falsifiedBy: "npm run bench" },
    ]) {
      const { viaMcp, viaRest } = await append(body);
      expect(viaMcp.isError).toBe(false);
      expect(withoutTime(viaMcp)).toEqual(withoutTime(viaRest));
    }
    for (const body of [
      { action: "bogus" },
      { action: "record-prediction", id: "H1", text: "t", falsifiedBy: "  " },
      { action: "record-prediction", id: "H9", text: "t", falsifiedBy: "c" },
      { action: "record-verdict", id: "P1", verdict: "maybe", evidence: "e" },
      { action: "record-verdict", id: "P1", verdict: "confirmed" },
      { action: "record-hypothesis", text: "t", bogus: 1 },
      { action: "record-hypothesis", text: 7 },
    ]) {
      const { viaMcp, viaRest } = await append(body);
      expect(viaMcp.isError, JSON.stringify(body)).toBe(true);
      expect(viaMcp, JSON.stringify(body)).toEqual(viaRest);
    }
    expect(await alpha("experiment", { slug: "parity", action: "list" })).toEqual(
      await rest("POST", "/api/v1/ledger/parity", { json: { action: "list" }, ...inBeta }),
    );
    expect(await alpha("experiment", { slug: "Bad Slug", action: "list" })).toEqual(
      await rest("POST", "/api/v1/ledger/Bad%20Slug", { json: { action: "list" }, ...inBeta }),
    );
    // A read key may not write: the same refusal.
    const { key: readKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read"] });
    const reader = await mcp(readKey);
    expect(await reader("experiment", { slug: "parity", action: "record-hypothesis", text: "h" })).toEqual(
      await rest("POST", "/api/v1/ledger/parity", { json: { action: "record-hypothesis", text: "h" }, key: readKey }),
    );
  });

  it("checks the key's scope before the arguments, as REST checks it before the body: a read key with bad arguments is told the scope", async () => {
    const { key: readKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read"] });
    const reader = await mcp(readKey);
    const forbidden = { text: 'this API key lacks the "write" scope; ask a lead for a key that has it', isError: true };
    const bad = { name: "Bad Name!", description: 42, body: null, surplus: true };
    expect(await reader("skill_manage", { action: "create", ...bad })).toEqual(forbidden);
    expect(await rest("POST", "/api/v1/skills", { json: bad, key: readKey })).toEqual(forbidden);
    expect(await reader("experiment", { slug: "Bad Slug", action: "record-nonsense" })).toEqual(forbidden);
    expect(await rest("POST", "/api/v1/ledger/Bad%20Slug", { json: { action: "record-nonsense" }, key: readKey })).toEqual(forbidden);
    expect(await reader("record_observation", { skill: 7 })).toEqual(forbidden);
    expect(await rest("POST", "/api/v1/observations", { json: { skill: 7 }, key: readKey })).toEqual(forbidden);
  });

  it("answers record_observation as POST /api/v1/observations does, refusals included", async () => {
    const alpha = await mcp(t.alpha.key);
    const observation = {
      skill: "systematic-debugging",
      task: "Fix the flaky cache test",
      category: "bugfix",
      outcome: "failure",
      score: 0.25,
      toolsCalled: ["bash"],
    };
    const viaMcp = await alpha("record_observation", observation);
    const viaRest = await rest("POST", "/api/v1/observations", { json: observation, key: t.beta.key });
    expect(viaMcp.isError).toBe(false);
    expect(Object.keys(JSON.parse(viaMcp.text) as object)).toEqual(Object.keys(JSON.parse(viaRest.text) as object));
    for (const change of [
      { outcome: "meh" },
      { score: 1.5 },
      { task: "   " },
      { skill: "Bad_Name" },
      { skill: "no-such-skill" },
      { version: 0 },
      { extra: true },
    ]) {
      const body = { ...observation, ...change };
      const answer = await alpha("record_observation", body);
      expect(answer.isError, JSON.stringify(change)).toBe(true);
      expect(answer, JSON.stringify(change)).toEqual(await rest("POST", "/api/v1/observations", { json: body }));
    }
  });
});
