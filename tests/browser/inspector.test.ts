import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { MCP_KEY } from "./server";

const baseUrl = inject("baseUrl");

/**
 * The MCP Inspector's CLI (0.21, the last that runs without a browser sign-in step), which needs
 * Node 22: .ci/run installs both from the npm registry into tests/.artifacts/inspector, apart from
 * the project's Node 20. Where they are not installed the test says so and is skipped.
 */
const TOOLS = path.resolve("tests/.artifacts/inspector/node_modules");
const NODE_22 = path.join(TOOLS, ".bin/node");
const INSPECTOR = path.join(TOOLS, "@modelcontextprotocol/inspector/cli/build/index.js");
const installed = existsSync(NODE_22) && existsSync(INSPECTOR);

function inspect(...headers: string[]): Promise<{ code: number | null; output: string }> {
  const args = [
    INSPECTOR,
    `${baseUrl}/api/mcp`,
    "--transport",
    "http",
    "--method",
    "tools/list",
    ...headers.flatMap((h) => ["--header", h]),
  ];
  return new Promise((resolve) => {
    const child = spawn(NODE_22, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe.skipIf(!installed)("the MCP Inspector's CLI against /api/mcp (Node 22, installed by .ci/run)", () => {
  it("lists the six tools with a key", async () => {
    const { code, output } = await inspect(`Authorization: Bearer ${MCP_KEY}`);
    expect(code).toBe(0);
    const { tools } = JSON.parse(output) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual([
      "skill_list",
      "skill_view",
      "skill_file",
      "skill_manage",
      "experiment",
      "record_observation",
    ]);
  });

  it("says a wrong key is not valid, not that the server wants a sign-in", async () => {
    const { code, output } = await inspect("Authorization: Bearer sg_not_a_key_of_ours");
    expect(code).toBe(1);
    expect(output).toContain(
      'Failed to connect to MCP server: Streamable HTTP error: Error POSTing to endpoint: {"error":{"code":"InvalidToken","message":"API key not valid or revoked; ask a lead for a new one"}}',
    );
    expect(output).not.toMatch(/OAuth|TTY/);
  });

  it("says how to sign in when no key is sent", async () => {
    const { code, output } = await inspect();
    expect(code).toBe(1);
    expect(output).toContain(
      `{"error":{"code":"Unauthorized","message":"sign in: an MCP client does it with OAuth from this answer's WWW-Authenticate; or send a team API key as Authorization: Bearer <key>"}}`,
    );
  });
});
