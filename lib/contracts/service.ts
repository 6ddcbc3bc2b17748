import { z } from "zod";
import { defineOperation, json } from "./operation";
import { fileResponse, indexFileParam } from "./files";
import { skillNameParam } from "../skills/name-schema";

/** Health, this document, the MCP endpoint and the skill installers' index (docs/api.md, docs/mcp.md#skill-installers). */

export const health = defineOperation({
  operationId: "health",
  method: "GET",
  path: "/api/health",
  tag: "service",
  summary: "Health, with the database's state",
  scope: null,
  responses: {
    200: json(
      z.strictObject({
        status: z.literal("ok"),
        database: z.strictObject({ kind: z.enum(["pglite", "postgres", "neon"]), state: z.literal("up") }),
      }),
      "up",
    ),
  },
  errors: [],
  errorBodies: {
    DatabaseUnavailable: z.strictObject({
      status: z.literal("unavailable"),
      database: z.strictObject({ state: z.literal("down"), error: z.string().describe("what failed, as the server log says it") }),
    }),
  },
});

export const live = defineOperation({
  operationId: "live",
  method: "GET",
  path: "/api/live",
  tag: "service",
  summary: "Liveness: the process answers; touches nothing else (a load balancer's probe, and the bench's baseline)",
  scope: null,
  responses: { 200: json(z.strictObject({ status: z.literal("live") }), "the process answers") },
  errors: [],
});

export const openApi = defineOperation({
  operationId: "openApi",
  method: "GET",
  path: "/api/v1/openapi.json",
  tag: "service",
  summary: "This document (OpenAPI 3.1)",
  scope: null,
  responses: { 200: json(z.object({ openapi: z.literal("3.1.0") }).loose(), "the OpenAPI document") },
  errors: [],
});

const jsonRpc = z
  .object({ jsonrpc: z.literal("2.0") })
  .loose()
  .describe("a JSON-RPC 2.0 message (MCP Streamable HTTP)");
/** The transport's own refusals (no session, an unknown session, no stream) are JSON-RPC errors, not the API's envelope. */
const jsonRpcError = z.strictObject({
  jsonrpc: z.literal("2.0"),
  error: z.strictObject({ code: z.number().int(), message: z.string() }),
  id: z.null(),
});

export const mcp = defineOperation({
  operationId: "mcp",
  method: "POST",
  path: "/api/mcp",
  tag: "integrations",
  summary:
    "The MCP endpoint (Streamable HTTP, bearer API key or OAuth access token): skill_list, skill_view, skill_file, skill_manage, experiment, record_observation",
  description:
    "Open a session with an initialize request; send its Mcp-Session-Id header on every later request. Tool refusals are results with isError and the REST route's error message. Without a key, a 401 names the protected-resource metadata (RFC 9728) from which an MCP client discovers OAuth: /.well-known/oauth-protected-resource/api/mcp and /.well-known/oauth-authorization-server (RFC 8414), with dynamic client registration, PKCE (S256) and refresh tokens.",
  scope: "read",
  body: { schema: jsonRpc },
  responses: { 200: json(jsonRpc, "the JSON-RPC response"), 202: { kind: "empty", description: "a notification or response, accepted" } },
  errors: ["NotFound", "BadRequest", "NotAcceptable", "UnsupportedMediaType"],
  errorBodies: { NotFound: jsonRpcError, BadRequest: jsonRpcError, NotAcceptable: jsonRpcError, UnsupportedMediaType: jsonRpcError },
});

export const mcpStream = defineOperation({
  operationId: "mcpStream",
  method: "GET",
  path: "/api/mcp",
  tag: "integrations",
  summary: "Not used: this server pushes no notifications, so it answers 405",
  scope: "read",
  responses: {},
  errors: ["MethodNotAllowed"],
  errorBodies: { MethodNotAllowed: jsonRpcError },
});

export const mcpEnd = defineOperation({
  operationId: "mcpEnd",
  method: "DELETE",
  path: "/api/mcp",
  tag: "integrations",
  summary: "End an MCP session (Mcp-Session-Id)",
  scope: "read",
  responses: { 200: { kind: "empty", description: "the session ended" } },
  errors: ["NotFound"],
  errorBodies: { NotFound: jsonRpcError },
});

export const skillsIndexSchema = z.strictObject({
  skills: z.array(
    z.strictObject({
      name: z.string(),
      description: z.string(),
      version: z.number().int(),
      files: z.array(z.string()).describe("SKILL.md first, then the supporting files"),
    }),
  ),
});

export const skillsIndex = defineOperation({
  operationId: "skillsIndex",
  servesStale: true,
  method: "GET",
  path: "/.well-known/skills/index.json",
  tag: "integrations",
  summary: "The Agent Skills discovery index of the team's active skills, for installers (npx skills add)",
  scope: "read",
  responses: { 200: json(skillsIndexSchema, "the team's active skills and their files") },
  errors: [],
});

export const skillsIndexFile = defineOperation({
  operationId: "skillsIndexFile",
  servesStale: true,
  method: "GET",
  path: "/.well-known/skills/{name}/{file}",
  tag: "integrations",
  summary: "A file the index lists: SKILL.md (frontmatter and body, byte for byte) or a supporting file",
  scope: "read",
  params: z.object({ name: skillNameParam, file: indexFileParam }),
  responses: { 200: fileResponse("the file, byte for byte, with the content type of its extension (SKILL.md: text/markdown)") },
  errors: ["InvalidName", "SkillNotFound", "FileNotFound"],
});

export const SERVICE_OPERATIONS = [health, live, openApi, mcp, mcpStream, mcpEnd, skillsIndex, skillsIndexFile];
