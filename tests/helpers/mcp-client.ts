import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach } from "vitest";
import { fetchApp } from "./app";

/** A tool's result as a test reads it: its text, whether it is a refusal, and its `_meta`. */
export interface ToolAnswer {
  text: string | undefined;
  isError: boolean;
  meta: Record<string, unknown> | undefined;
}

/**
 * The official MCP client against the test app's routes, one per key; every client a test opened
 * is closed after it. Call in a describe block; the returned function connects and answers a caller.
 */
export function useMcpClients(
  name: string,
): (key: string) => Promise<(tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>> {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  return async (key) => {
    const client = new Client({ name, version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (url, init) => fetchApp(new Request(url, init)),
    });
    await client.connect(transport);
    clients.push(client);
    return async (tool, args) => {
      const result = (await client.callTool({ name: tool, arguments: args })) as {
        content: { text: string }[];
        isError?: boolean;
        _meta?: Record<string, unknown>;
      };
      return { text: result.content[0]?.text, isError: result.isError === true, meta: result._meta };
    };
  };
}
