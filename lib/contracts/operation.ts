import { z } from "zod";
import { errorStatus, type ErrorCode } from "../errors";
import type { Scope } from "../auth/scopes";

/**
 * An operation's contract: its path, query and body schemas, every response it can give and the
 * error codes it can answer. Route handlers parse with these schemas, MCP tools take their input
 * schemas from them, server actions validate with them, the OpenAPI document is generated from
 * them, and the integration tests check every response against them.
 */
export interface Operation<Params extends z.ZodType = z.ZodType, Query extends z.ZodType = z.ZodType, Body extends BodySpec = BodySpec> {
  /** Unique, camelCase: the OpenAPI operationId. */
  operationId: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI form: `/api/v1/skills/{name}`. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** The API key scope it needs; null for a public route. */
  scope: Scope | null;
  params?: Params;
  query?: Query;
  body?: Body;
  /** Successful (and 304) responses by status; several when the content type depends on the request. */
  responses: Partial<Record<SuccessStatus, ResponseSpec | ResponseSpec[]>>;
  /** The error codes this operation itself can answer, beyond those every authenticated route can (`COMMON_ERRORS`). */
  errors: ErrorCode[];
  /**
   * Long work (db/budget.ts): its queries are not held to a request's 5 s — a sync of thousands of
   * skills, a judged evaluation, an import.
   */
  longWork?: true;
  /**
   * What agents read: while the database is away it is answered from this instance's last answer
   * to the same request, marked `X-Skillgate-Stale` (docs/outages.md#stale-answers).
   */
  servesStale?: true;
  /** Errors whose body carries more than the envelope (the ledger gate lists the open predictions). */
  errorBodies?: Partial<Record<ErrorCode, z.ZodType>>;
}

export interface BodySpec<Schema extends z.ZodType = z.ZodType, Parsed = unknown> {
  schema: Schema;
  /** Bytes accepted; 1 MiB unless the route says otherwise (docs/api.md#request-bodies). */
  maxBytes?: number;
  /** The body may be left out (a DELETE with an optional reason): it then reads as `{}`. */
  optional?: true;
  /** Media types besides JSON (e.g. a gzip tar of the same tree). */
  alsoAccepts?: "application/gzip"[];
  /**
   * For bodies with two forms (one item, or a batch under a key): how to tell them apart, so a
   * refusal names the field of the form that was sent rather than a union's generic "Invalid input".
   */
  parse?: (value: unknown) => Parsed;
}

/** What a handler receives for a body: nothing when it may be a tar (the handler reads it), the parse function's result, or the schema's output. */
export type BodyOf<B> = B extends { alsoAccepts: readonly unknown[] }
  ? undefined
  : B extends { parse: (value: unknown) => infer R }
    ? R
    : B extends { schema: infer S extends z.ZodType }
      ? z.infer<S>
      : undefined;

type SuccessStatus = 200 | 201 | 202 | 304;

export type ResponseSpec =
  | { kind: "json"; description: string; schema: z.ZodType; headers?: Record<string, HeaderSpec> }
  | { kind: "text"; description: string; example?: string; headers?: Record<string, HeaderSpec> }
  | { kind: "bytes"; description: string; mediaType: string; headers?: Record<string, HeaderSpec> }
  /** A skill's file: the content type its extension has (lib/skills/content-types.ts), each one documented. */
  | { kind: "file"; description: string; headers?: Record<string, HeaderSpec> }
  | { kind: "empty"; description: string; headers?: Record<string, HeaderSpec> };

export interface HeaderSpec {
  description: string;
  type: "string" | "integer";
  /** Sent only in some of the responses (said in the description). */
  optional?: boolean;
}

export const TAGS = {
  skills: "The catalog, skill_view, learned skills and their versions",
  listing: "The listing for an agent's system prompt",
  lint: "Description lint",
  ledger: "The experiment ledger",
  evolution: "Observations, amendments and judged evaluations",
  activation: "Activation evals and real usage",
  transfer: "Export and import of learned skills",
  integrations: "MCP and skill installers",
  team: "Members, invitations and team settings",
  service: "Health and this document",
} as const;
export type Tag = keyof typeof TAGS;

export function defineOperation<P extends z.ZodType = z.ZodNever, Q extends z.ZodType = z.ZodNever, B extends BodySpec = never>(
  operation: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return operation;
}

export const json = (schema: z.ZodType, description: string, headers?: Record<string, HeaderSpec>): ResponseSpec => ({
  kind: "json",
  schema,
  description,
  headers,
});
export const text = (description: string, example?: string, headers?: Record<string, HeaderSpec>): ResponseSpec => ({
  kind: "text",
  description,
  example,
  headers,
});

/** The one error envelope of docs/api.md#errors. */
export const errorEnvelope = z.strictObject({
  error: z.strictObject({
    code: z.string().describe("a stable code, e.g. SkillNotFound"),
    message: z.string().describe("what went wrong and what to fix"),
  }),
});

/** What any route behind an API key can answer, whatever it does. */
const COMMON_ERRORS: ErrorCode[] = [
  "Unauthorized",
  "InvalidToken",
  "Forbidden",
  "RateLimited",
  "InvalidPath",
  "DatabaseUnavailable",
  "Overloaded",
  "InternalError",
];

/** What any route that reads a body can answer besides. */
const BODY_ERRORS: ErrorCode[] = ["InvalidJson", "InvalidUtf8", "InvalidField", "PayloadTooLarge", "UnsupportedMediaType"];

/** Every code an operation can answer, with its status. */
export function errorsOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...(operation.scope ? COMMON_ERRORS : (["DatabaseUnavailable", "Overloaded", "InternalError"] as const)),
    ...(operation.body ? BODY_ERRORS : []),
    ...(operation.query ? (["InvalidQuery"] as const) : []),
    ...operation.errors,
  ]);
  return [...codes].sort((a, b) => errorStatus[a] - errorStatus[b] || a.localeCompare(b));
}
