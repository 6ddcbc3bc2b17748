import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { App } from "../contracts/app";
import type { KeyAuth } from "../auth/api-keys";
import { bearerChallenge, errorResponse } from "../http/respond";
import { authenticate, bearerOf, entryPoint, type Bearers } from "../http/pipeline";
import { oauthAddresses } from "../http/oauth-paths";
import { looksLikeOAuthToken } from "../oauth/connections";
import { isAppError } from "../errors";
import { isUnanswered } from "@/db/outage";
import { continueMcpSession, endMcpSession, openMcpSession } from "./sessions";
import { registerTools } from "./tools";

/**
 * The MCP endpoint (docs/mcp.md#endpoint-and-sessions): Streamable HTTP with the SDK's web-standard transport. Sessions live in
 * the database (lib/mcp/sessions.ts), and every request is served by a fresh server and transport
 * in the SDK's stateless mode, so any instance can serve any session: the session id the client
 * carries is checked against the table, belongs to the key that opened it, and is the agent
 * session of every view and write. Every request is authenticated again with its bearer key. On
 * the request pipeline (lib/http/pipeline.ts): what is its own is the credentials it takes (an API
 * key or a connection's token), the sessions, its refusals' challenges and the tools, which check
 * their scopes and parse their arguments per call (lib/mcp/tools.ts).
 */

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/** Any method: Next's route handlers for /api/mcp. */
export const handleMcp = entryPoint<unknown>("request", serveMcp, refused);

/**
 * An API key, or an OAuth access token of a connection (lib/oauth/connections.ts), which acts as
 * the key row of its connection: its team, its scopes, its rate limit, its sessions.
 */
const BEARERS: Bearers = {
  connections: true,
  missing:
    "sign in: an MCP client does it with OAuth from this answer's WWW-Authenticate; or send a team API key as Authorization: Bearer <key>",
};

async function serveMcp(req: Request, app: App): Promise<Response> {
  const auth = await authenticate(app, req, BEARERS);
  // Nothing is ever pushed to clients, so there is no stream to open.
  if (req.method === "GET") return jsonRpcError(405, -32000, "Method not allowed: this server sends no notifications");
  const sessionId = req.headers.get("mcp-session-id");
  if (req.method === "DELETE") {
    const ended = sessionId !== null && (await endMcpSession(app.db, sessionId, auth.keyId));
    if (ended) app.lastAnswers.mcpSessions.delete(sessionId);
    return ended ? new Response(null, { status: 200 }) : jsonRpcError(404, -32001, "Session not found: initialize a new session");
  }
  if (req.method !== "POST") return jsonRpcError(405, -32000, "Method not allowed: send POST");
  if (sessionId) {
    // Unknown (expired, ended) or another key's: the client starts a new session.
    if (!(await sessionContinues(app, sessionId, auth.keyId)))
      return jsonRpcError(404, -32001, "Session not found: initialize a new session");
    return await serve(app, auth, sessionId, req);
  }
  if (!(await opensSession(req))) return jsonRpcError(400, -32000, "Bad Request: no session; open one with an initialize request");
  const opened = randomUUID();
  const response = await serve(app, auth, opened, req);
  if (!response.ok) return response;
  await openMcpSession(app.db, opened, { teamId: auth.team.id, keyId: auth.keyId });
  app.lastAnswers.mcpSessions.set(opened, auth.keyId);
  const headers = new Headers(response.headers);
  headers.set("mcp-session-id", opened);
  return new Response(response.body, { status: response.status, headers });
}

function refused(error: unknown, req: Request): Response {
  return errorResponse(error, challengeFor(error, req));
}

/**
 * What a refused request is told of how to authenticate (RFC 6750, RFC 9728). With no credential,
 * or a token of ours no longer good, where to find OAuth; a wrong API key only that the key is
 * wrong, so that clients do not start OAuth when the key was meant (issue 28).
 */
function challengeFor(error: unknown, req: Request): Record<string, string> {
  if (!isAppError(error) || (error.code !== "Unauthorized" && error.code !== "InvalidToken")) return {};
  const bearer = bearerOf(req);
  if (error.code === "InvalidToken" && bearer !== null && !looksLikeOAuthToken(bearer)) {
    return { "www-authenticate": bearerChallenge({ error: "invalid_token", error_description: "key not valid or revoked" }) };
  }
  const { resourceMetadata } = oauthAddresses(req);
  const invalid: Record<string, string> = error.code === "InvalidToken" ? { error: "invalid_token", error_description: error.message } : {};
  return { "www-authenticate": bearerChallenge({ ...invalid, resource_metadata: resourceMetadata }) };
}

/**
 * Whether the session is open for this key. While the database is away, a session this instance
 * saw open goes on, so a running agent keeps its skills (docs/outages.md#stale-answers); a new one cannot open.
 */
async function sessionContinues(app: App, sessionId: string, keyId: number): Promise<boolean> {
  try {
    const open = await continueMcpSession(app.db, sessionId, keyId);
    if (open) app.lastAnswers.mcpSessions.set(sessionId, keyId);
    return open;
  } catch (error) {
    if (isUnanswered(error) && app.lastAnswers.mcpSessions.get(sessionId) === keyId) return true;
    throw error;
  }
}

/** Whether the body is one initialize request: the only request that may come without a session. */
async function opensSession(req: Request): Promise<boolean> {
  const body: unknown = await req
    .clone()
    .json()
    .catch(() => null);
  return isInitializeRequest(body);
}

async function serve(app: App, auth: KeyAuth, sessionId: string, req: Request): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = new Server({ name: "skillgate", version: "1.0.0" }, { capabilities: { tools: {} } });
  registerTools(server, { app, auth: () => auth, sessionId: () => sessionId });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
    app.views.flushAfterResponse(app.flushViewsAfterResponse);
  }
}
