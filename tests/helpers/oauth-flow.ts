import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { expect } from "vitest";
import { consent } from "@/lib/oauth/authorizations";
import type { AccessLevel } from "@/lib/auth/scopes";
import { fetchApp, type TestApp } from "./app";
import { MemoryOAuthClient } from "./oauth-client";

export const ORIGIN = "http://skillgate.test";
export const MCP_URL = new URL(`${ORIGIN}/api/mcp`);
export const REDIRECT = "http://127.0.0.1:8976/callback";
export const RESOURCE_METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`;

export type ToolAnswer = { text: string; isError: boolean };
export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The test app's routes, in process, as the MCP SDK's client fetches them. */
export const inProcess: Fetch = (url, init) => fetchApp(new Request(url, init));

/**
 * What the OAuth tests do with the MCP SDK's client, as Claude Code does it: discovery,
 * registration, PKCE, the member's consent (called directly: the consent page is the browser
 * tests'), the code for tokens, then tool calls. `fetch` is how the client reaches the app.
 */
export function oauthFlow(t: TestApp, member: () => { id: number }, clients: Client[], fetch: Fetch = inProcess) {
  const transportOf = (provider: MemoryOAuthClient) => new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider, fetch });

  /** Registers and sends the member's browser to /authorize: the request id the consent page gets. */
  async function startSignIn(provider: MemoryOAuthClient): Promise<string> {
    await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(transportOf(provider))).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const answer = await fetch(provider.authorizationUrl!);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/oauth/consent`);
    return location.searchParams.get("request")!;
  }

  /** The member consents: the code the browser brings back to the client. */
  async function consentedCode(provider: MemoryOAuthClient, team: string, level: AccessLevel): Promise<string> {
    const request = await startSignIn(provider);
    const { redirectTo } = await consent(t.app.db, request, { userId: member().id }, { teamSlug: team, level });
    const back = new URL(redirectTo);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe(provider.authorizationUrl!.searchParams.get("state"));
    return back.searchParams.get("code")!;
  }

  /** Everything Claude Code does on `claude mcp add --transport http`; the code it spent is kept on the provider. */
  async function signIn(team: string, level: AccessLevel, provider = new MemoryOAuthClient(REDIRECT)): Promise<MemoryOAuthClient> {
    const code = await consentedCode(provider, team, level);
    await transportOf(provider).finishAuth(code);
    provider.spentCode = code;
    return provider;
  }

  async function connected(provider: MemoryOAuthClient) {
    const client = new Client({ name: "oauth-test", version: "1.0.0" });
    await client.connect(transportOf(provider));
    clients.push(client);
    return async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
      const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
      return { text: result.content[0]!.text, isError: result.isError === true };
    };
  }

  const post = (path: string, form: Record<string, string>) =>
    fetch(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });

  /** An MCP `initialize` sent with this bearer, as any client's first request. */
  const initializeWith = (accessToken: string) =>
    fetch(MCP_URL, {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });

  return { transportOf, startSignIn, consentedCode, signIn, connected, post, initializeWith };
}
