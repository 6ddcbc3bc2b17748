import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getApp } from "../app/boot";
import type { KeyAuth } from "../auth/api-keys";
import { errorResponse } from "../http/respond";
import { authenticateRequest } from "../http/route";
import { registerTools } from "./tools";

/**
 * The MCP endpoint (§12): Streamable HTTP with the SDK's web-standard transport, one transport and
 * server per MCP session, so the session id the client carries is the agent session of every view
 * and write. Every request is authenticated again with its bearer key; a session belongs to the key
 * that opened it. Sessions live in this process and end after 30 idle minutes.
 */

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  keyId: number;
  auth: KeyAuth;
  lastSeen: number;
}

const IDLE_MS = 30 * 60 * 1000;
const slot = globalThis as typeof globalThis & { __skillgateMcp?: Map<string, Session> };

function sessions(): Map<string, Session> {
  if (!slot.__skillgateMcp) {
    const open = new Map<string, Session>();
    slot.__skillgateMcp = open;
    setInterval(() => {
      const now = Date.now();
      for (const [id, session] of open) {
        if (now - session.lastSeen > IDLE_MS) {
          void session.transport.close();
          open.delete(id);
        }
      }
    }, 60_000).unref();
  }
  return slot.__skillgateMcp;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

export async function handleMcp(req: Request): Promise<Response> {
  try {
    const auth = await authenticateRequest(await getApp(), req);
    // Nothing is ever pushed to clients, so there is no stream to open.
    if (req.method === "GET") return jsonRpcError(405, -32000, "Method not allowed: this server sends no notifications");
    const sessionId = req.headers.get("mcp-session-id");
    if (sessionId) {
      const session = sessions().get(sessionId);
      // Unknown (expired, another instance, a restart) or another key's: the client starts a new session.
      if (!session || session.keyId !== auth.keyId) return jsonRpcError(404, -32001, "Session not found: initialize a new session");
      session.auth = auth;
      session.lastSeen = Date.now();
      const response = await session.transport.handleRequest(req);
      if (req.method === "DELETE") sessions().delete(sessionId);
      return response;
    }
    if (req.method !== "POST") return jsonRpcError(400, -32000, "No session: open one with an initialize request");
    return await openSession(req, auth);
  } catch (error) {
    return errorResponse(error);
  }
}

async function openSession(req: Request, auth: KeyAuth): Promise<Response> {
  const app = await getApp();
  const session: Session = {
    keyId: auth.keyId,
    auth,
    lastSeen: Date.now(),
    transport: new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions().set(id, session),
      onsessionclosed: (id) => void sessions().delete(id),
    }),
  };
  const server = new Server({ name: "skillgate", version: "1.0.0" }, { capabilities: { tools: {} } });
  registerTools(server, { app, auth: () => session.auth, sessionId: () => session.transport.sessionId ?? null });
  await server.connect(session.transport);
  return session.transport.handleRequest(req);
}
