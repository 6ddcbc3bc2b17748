import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";
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

/**
 * The official MCP client against the built server, end to end over HTTP: what the tools answer,
 * word for word and beside their REST routes, is tests/integration/mcp-parity.test.ts's and
 * mcp-endpoint.test.ts's, through the same route handlers in-process.
 */
describe("the MCP endpoint with the official MCP client", () => {
  it("opens a session, offers the six tools of docs/mcp.md#tools described for agents, answers a view as REST does, and refuses a bad key", async () => {
    const { client, transport } = await connect(MCP_KEY);
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "skill_list",
        "skill_view",
        "skill_file",
        "skill_manage",
        "experiment",
        "record_observation",
      ]);
      for (const t of tools) expect(t.description!.length, t.name).toBeGreaterThan(80);
      const viewed = (await client.callTool({ name: "skill_view", arguments: { name: "writing-plans" } })) as {
        content: { type: string; text: string }[];
        isError?: boolean;
      };
      const res = await fetch(`${baseUrl}/api/v1/skills/writing-plans`, { headers: { authorization: `Bearer ${MCP_KEY}` } });
      expect(res.status).toBe(200);
      expect([viewed.isError, viewed.content[0]!.text]).toEqual([undefined, await res.text()]);
    } finally {
      await client.close();
    }
    await expect(connect("sg_not_a_key")).rejects.toThrow();
  });
});
