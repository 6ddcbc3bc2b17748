import { z } from "zod";
import {
  createSkillSchema,
  forkSchema,
  lintBodySchema,
  rollbackSchema,
  syncBodySchema,
  updateSkillSchema,
  verifySchema,
  ledgerBodySchema,
  amendmentSchema,
  promoteAmendmentSchema,
} from "./schemas";
import { observationSchema } from "../evolution/observations";
import { promptSetSchema } from "../activation/prompt-sets";
import { runRequestSchema } from "../activation/runs";

/**
 * The OpenAPI document of every route (GET /api/v1/openapi.json). A test checks that each route
 * file under app/api appears here with each method it exports.
 */

type Method = "get" | "post" | "put" | "delete";

interface Operation {
  method: Method;
  path: string;
  summary: string;
  /** The API key scope it needs; null for public routes. */
  scope: "read" | "write" | "admin" | null;
  body?: z.ZodType;
  bodyTypes?: string[];
  query?: Record<string, string>;
  responses: Record<string, string>;
  produces?: "json" | "text" | "bytes";
}

const nameParam = { name: "name", in: "path", required: true, schema: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" } };

export const OPERATIONS: Operation[] = [
  { method: "get", path: "/api/health", summary: "Health, with the database's state", scope: null, responses: { "200": "up", "503": "database unreachable" } },
  { method: "get", path: "/api/v1/openapi.json", summary: "This document", scope: null, responses: { "200": "OpenAPI 3.1" } },
  {
    method: "get",
    path: "/api/v1/listing",
    summary: "The skills listing for an agent's system prompt (SPEC §3); figures in X-Skills-* headers",
    scope: "read",
    produces: "text",
    query: { cap: "what-if cap (characters)", descMax: "what-if description cut", format: "text (default) or json" },
    responses: { "200": "the listing", "304": "unchanged (If-None-Match)" },
  },
  {
    method: "get",
    path: "/api/v1/skills",
    summary: "Every skill the team can see with source, scope, version and status, and the diagnostics",
    scope: "read",
    query: { limit: "page size, 1–1000 (default 500)", cursor: "nextCursor of the previous page" },
    responses: { "200": '{"skills": [...], "diagnostics": [...], "nextCursor": string | null}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/sync",
    summary: "Replace the team's workspace skill tree (JSON files or application/gzip tar), all or nothing",
    scope: "admin",
    body: syncBodySchema,
    bodyTypes: ["application/json", "application/gzip"],
    responses: { "200": '{"skills", "diagnostics", "changes"}', "400": "an invalid skill or path; nothing changed", "413": "over 64 MiB" },
  },
  {
    method: "get",
    path: "/api/v1/skills/sync",
    summary: "skill_view of a skill named 'sync' (see GET /api/v1/skills/{name})",
    scope: "read",
    produces: "text",
    responses: { "200": "the skill", "404": "SkillNotFound" },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}",
    summary: "skill_view: annotation line, then the body byte for byte; ETag is the SHA-256 of that version's SKILL.md",
    scope: "read",
    produces: "text",
    query: { version: "serve an earlier version of a learned or file skill" },
    responses: { "200": "the skill", "304": "unchanged", "404": "SkillNotFound or VersionNotFound" },
  },
  {
    method: "post",
    path: "/api/v1/skills",
    summary: "Create a learned skill: a draft unless an admin key asks for status active (§6.1)",
    scope: "write",
    body: createSkillSchema,
    responses: { "201": '{"name", "version": 1, "status"}', "409": "NameCollision or SkillExists" },
  },
  {
    method: "put",
    path: "/api/v1/skills/{name}",
    summary: "A new version of a learned skill, against expectedVersion or If-Match (a version number or its ETag)",
    scope: "write",
    body: updateSkillSchema,
    responses: { "200": '{"name", "version"}', "403": "BuiltInImmutable or FileSkillReadOnly", "409": "VersionConflict" },
  },
  {
    method: "delete",
    path: "/api/v1/skills/{name}",
    summary: "Archive a learned skill (history kept; a lead can restore it)",
    scope: "write",
    responses: { "200": '{"name", "status": "archived"}' },
  },
  { method: "put", path: "/api/v1/skills/sync", summary: "PUT of a learned skill named 'sync'", scope: "write", body: updateSkillSchema, responses: { "200": '{"name", "version"}' } },
  { method: "delete", path: "/api/v1/skills/sync", summary: "DELETE of a learned skill named 'sync'", scope: "write", responses: { "200": '{"name", "status": "archived"}' } },
  {
    method: "post",
    path: "/api/v1/skills/{name}/promote",
    summary: "Make the draft the active learned skill; collisions are checked again now (editor, lead or admin key)",
    scope: "write",
    responses: { "200": '{"name", "version", "status": "active"}', "409": "NameCollision or NotADraft" },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/rollback",
    summary: "A new version with the content of toVersion (lead or admin key)",
    scope: "write",
    body: rollbackSchema,
    responses: { "200": '{"name", "version", "revertOf"}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/restore",
    summary: "Bring back the most recently archived learned skill of this name (lead or admin key)",
    scope: "write",
    responses: { "200": '{"name", "version", "status"}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/fork",
    summary: "Fork any visible skill into a new learned skill with forkedFrom",
    scope: "write",
    body: forkSchema,
    responses: { "201": '{"name", "version": 1, "status", "forkedFrom"}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/verify",
    summary: "Set the current version's tier; verified needs a hostile review report",
    scope: "write",
    body: verifySchema,
    responses: { "200": '{"name", "version", "tier"}', "422": "ReviewRequired" },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/versions",
    summary: "Every version with author, time, reason, parent, revertOf and tier",
    scope: "read",
    responses: { "200": '{"versions": [...]}' },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/diff",
    summary: "Unified diff of the SKILL.md texts of two versions",
    scope: "read",
    produces: "text",
    query: { from: "version A", to: "version B" },
    responses: { "200": "unified diff" },
  },
  {
    method: "get",
    path: "/api/v1/learned-skills/export",
    summary: "The team's learned skills as SKILL.md folders in a .tar.gz, provenance in metadata",
    scope: "read",
    produces: "bytes",
    responses: { "200": "application/gzip" },
  },
  {
    method: "post",
    path: "/api/v1/learned-skills/import",
    summary: "Import learned skill folders (JSON files or .tar.gz), all or nothing",
    scope: "admin",
    body: syncBodySchema,
    bodyTypes: ["application/json", "application/gzip"],
    query: { origin: "where the skills come from, recorded as provenance when they carry none" },
    responses: { "201": '{"imported": [...]}' },
  },
  {
    method: "post",
    path: "/api/v1/ledger/{slug}",
    summary: "Append to the plan's experiment ledger: record-hypothesis, record-prediction, record-verdict, record-observation, record-conclusion, record-skip; or list",
    scope: "write",
    body: ledgerBodySchema,
    responses: { "201": '{"record": {"id", "kind", …}, "ledger": "sci.<slug>/ledger"}', "200": "list: the ledger as text", "409": "PredictionAlreadyJudged" },
  },
  {
    method: "get",
    path: "/api/v1/ledger/{slug}",
    summary: "The ledger as text: a header line, then one line per record",
    scope: "read",
    produces: "text",
    responses: { "200": "[experiment] sci.<slug>/ledger: N record(s), M open prediction(s)" },
  },
  {
    method: "get",
    path: "/api/v1/ledger/{slug}/gate",
    summary: "The finishing gate: 200 when no prediction is open, 409 OpenPredictions listing each one verbatim",
    scope: "read",
    responses: { "200": '{"ledger", "open": []}', "409": '{"error": {"code": "OpenPredictions", "message"}, "ledger", "open": [{"id", "text", "falsifiedBy", "hypothesis"}]}' },
  },
  {
    method: "get",
    path: "/api/v1/ledger",
    summary: "Every plan with records, open predictions, pass rate and last activity; pass rate for the team, per skill and per week",
    scope: "read",
    responses: { "200": '{"ledgers": [...], "passRate": {"team", "bySkill", "byWeek"}}' },
  },
  {
    method: "post",
    path: "/api/v1/observations",
    summary: "Record runs of skills: one observation, or {\"observations\": [...]} up to 500, all or nothing",
    scope: "write",
    body: observationSchema,
    responses: { "201": '{"ids": [...]}', "404": "SkillNotFound" },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/observations",
    summary: "The skill's observations, newest first",
    scope: "read",
    query: { outcome: "success, failure or partial", category: "category", version: "the version that ran", since: "ISO time", until: "ISO time", limit: "1–500" },
    responses: { "200": '{"observations": [...]}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/amendments",
    summary: "Propose an amendment (new body and/or description, with a rationale)",
    scope: "write",
    body: amendmentSchema,
    responses: { "201": '{"id", "status": "pending"}' },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/amendments",
    summary: "The skill's amendments with their latest evaluation",
    scope: "read",
    responses: { "200": '{"amendments": [...]}' },
  },
  {
    method: "post",
    path: "/api/v1/skills/{name}/amendments/generate",
    summary: "The configured model proposes an amendment from the skill's recent failures",
    scope: "write",
    responses: { "201": '{"id", "status": "pending"}', "503": "NoModel" },
  },
  {
    method: "post",
    path: "/api/v1/amendments/{id}/evaluate",
    summary: "Judge the amendment against the original on the skill's failure-weighted history (a judged comparison, not a re-execution); promotes on improved when the team allows",
    scope: "write",
    responses: { "200": '{"id", "verdict", "delta", "improved", "regressed", "unchanged", "cases": [...], "promotedVersion"}', "503": "NoModel" },
  },
  {
    method: "post",
    path: "/api/v1/amendments/{id}/promote",
    summary: "Promote by hand: an improved amendment, or a lead's override with a written reason",
    scope: "write",
    body: promoteAmendmentSchema,
    responses: { "200": '{"name", "version", "evaluationId", "override"}', "400": "ReasonRequired", "403": "Forbidden" },
  },
  {
    method: "get",
    path: "/api/v1/evaluations/{id}",
    summary: "An evaluation: progress while it runs, then the verdict and every case's per-dimension scores",
    scope: "read",
    responses: { "200": "the evaluation report" },
  },
  {
    method: "post",
    path: "/api/v1/evals/runs",
    summary: "An activation run: lexical (BM25 over the listing), model (the listing as system prompt, one skill_view tool) or import (an external harness's results)",
    scope: "write",
    body: runRequestSchema,
    responses: { "201": '{"id", "status", "metrics", "results": [{"id", "trial", "loaded"}]} (metrics once finished)', "503": "NoModel" },
  },
  { method: "get", path: "/api/v1/evals/runs", summary: "The team's activation runs, newest first", scope: "read", responses: { "200": '{"runs": [...]}' } },
  {
    method: "get",
    path: "/api/v1/evals/runs/{id}",
    summary: "A run: status (queued, running, finished, failed, cancelled), progress, results, and metrics once finished",
    scope: "read",
    responses: { "200": "the run" },
  },
  { method: "post", path: "/api/v1/evals/runs/{id}/cancel", summary: "Cancel a running run", scope: "write", responses: { "200": '{"id", "status": "cancelled"}', "409": "RunNotRunning" } },
  {
    method: "get",
    path: "/api/v1/evals/compare",
    summary: "Two runs side by side, case by case",
    scope: "read",
    query: { a: "run id", b: "run id" },
    responses: { "200": '{"a", "b", "cases": [...]}' },
  },
  { method: "get", path: "/api/v1/evals/prompt-sets", summary: "The team's prompt sets", scope: "read", responses: { "200": '{"promptSets": [...]}' } },
  { method: "post", path: "/api/v1/evals/prompt-sets", summary: "Create or replace a prompt set (the JSON import form)", scope: "write", body: promptSetSchema, responses: { "201": '{"name", "cases"}' } },
  { method: "get", path: "/api/v1/evals/prompt-sets/{name}", summary: "One prompt set, in its JSON export form", scope: "read", responses: { "200": '{"name", "cases"}' } },
  { method: "put", path: "/api/v1/evals/prompt-sets/{name}", summary: "Replace a prompt set's cases", scope: "write", body: promptSetSchema, responses: { "200": '{"name", "cases"}' } },
  { method: "delete", path: "/api/v1/evals/prompt-sets/{name}", summary: "Delete a prompt set (runs keep their own copy)", scope: "write", responses: { "200": '{"name", "deleted": true}' } },
  {
    method: "get",
    path: "/api/v1/usage",
    summary: "Real usage from views: per skill views in 7 and 30 days, sessions, last viewed; never-loaded skills; co-loaded pairs",
    scope: "read",
    responses: { "200": '{"skills": [...], "neverLoaded": [...], "coLoaded": [{"a", "b", "sessions", "share"}]}' },
  },
  {
    method: "post",
    path: "/api/v1/usage/views",
    summary: "Loads that happened outside skill_view (a harness reading skills from disk): {skill, sessionId, version?} or {views: [...]}",
    scope: "write",
    responses: { "201": '{"recorded": n}' },
  },
  {
    method: "get",
    path: "/api/skills-index/{path}",
    summary: "Served as /.well-known/skills/index.json and /.well-known/skills/<name>/<file>: the team's active skills for skill installers (npx skills add)",
    scope: "read",
    responses: { "200": '{"skills": [{"name", "description", "version", "files": ["SKILL.md", ...]}]} or the file' },
  },
  {
    method: "post",
    path: "/api/mcp",
    summary: "The MCP endpoint (Streamable HTTP, bearer API key): tools skill_list, skill_view, skill_manage, experiment, record_observation",
    scope: "read",
    responses: { "200": "JSON-RPC responses", "404": "unknown MCP session: initialize again" },
  },
  { method: "get", path: "/api/mcp", summary: "Not used: this MCP server sends no notifications (405)", scope: "read", responses: { "405": "no stream" } },
  { method: "delete", path: "/api/mcp", summary: "End an MCP session", scope: "read", responses: { "200": "session closed" } },
  {
    method: "get",
    path: "/api/v1/skills/{name}/files",
    summary: "The skill's supporting files",
    scope: "read",
    responses: { "200": '{"name", "files": [{"path", "size"}]}' },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/files/{path}",
    summary: "One supporting file, byte for byte; paths that leave the folder are a 400",
    scope: "read",
    produces: "bytes",
    responses: { "200": "the file", "400": "InvalidPath", "404": "FileNotFound" },
  },
  {
    method: "get",
    path: "/api/v1/skills/{name}/lint",
    summary: "Description lint of the skill (SPEC §5)",
    scope: "read",
    produces: "text",
    responses: { "200": "[lint] lines" },
  },
  {
    method: "post",
    path: "/api/v1/lint",
    summary: "Description lint of any text (SPEC §5)",
    scope: "read",
    body: lintBodySchema,
    produces: "text",
    responses: { "200": "[lint] lines" },
  },
];

const errorSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters = [
      ...(op.path.includes("{name}") ? [nameParam] : []),
      ...(op.path.includes("{id}") ? [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }] : []),
      ...(op.path.includes("{slug}") ? [{ name: "slug", in: "path", required: true, schema: { type: "string", pattern: "^[a-z0-9-]{1,80}$" } }] : []),
      ...(op.path.includes("{path}") ? [{ name: "path", in: "path", required: true, schema: { type: "string" } }] : []),
      ...Object.entries(op.query ?? {}).map(([name, description]) => ({ name, in: "query", required: false, description, schema: { type: "string" } })),
    ];
    const content = op.produces === "text" ? "text/plain" : op.produces === "bytes" ? "application/octet-stream" : "application/json";
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      security: op.scope ? [{ apiKey: [op.scope] }] : [],
      parameters,
      ...(op.body && {
        requestBody: {
          required: true,
          content: Object.fromEntries((op.bodyTypes ?? ["application/json"]).map((type) => [type, { schema: type.endsWith("json") ? z.toJSONSchema(op.body!, { io: "input" }) : { type: "string", format: "binary" } }])),
        },
      }),
      responses: {
        ...Object.fromEntries(
          Object.entries(op.responses).map(([status, description]) => [
            status,
            { description, ...(status.startsWith("2") && status !== "204" ? { content: { [content]: {} } } : {}) },
          ]),
        ),
        "4XX": { description: "an error; the message says what to fix", content: { "application/json": { schema: errorSchema } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Skillgate API", version: "1", description: "Agent skills, served and measured. Errors are {\"error\": {\"code\", \"message\"}}." },
    components: { securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "a team API key" } } },
    paths,
  };
}
