import { z } from "zod";
import { errorStatus, type ErrorCode } from "../errors";
import { OPERATIONS } from "./index";
import { errorEnvelope, errorsOf, TAGS, type HeaderSpec, type Operation, type ResponseSpec } from "./operation";
import { servedContentTypes } from "../skills/content-types";

/**
 * The OpenAPI 3.1 document (GET /api/v1/openapi.json), generated from the contracts: zod 4's
 * own JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses), so it cannot say anything the
 * route handlers do not check.
 */

type JsonSchema = Record<string, unknown>;

/** Request bodies as clients write them; responses and parsed parameters as the server gives them. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

function parametersOf(operation: Operation): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [location, schema] of [
    ["path", operation.params],
    ["query", operation.query],
  ] as const) {
    if (!schema) continue;
    const object = schemaOf(schema, "output") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      // A catch-all segment arrives as the parts of the path; on the wire it is one string with slashes.
      const wire = rest.type === "array" ? { type: "string" } : rest;
      parameters.push({
        name,
        in: location,
        required: location === "path" || (object.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: wire,
      });
    }
  }
  return parameters;
}

/** What an answer from memory says (docs/outages.md#stale-answers): operations that serve stale document it on their 200. */
const STALE_HEADER_SPEC: Record<string, HeaderSpec> = {
  "X-Skillgate-Stale": {
    description:
      "sent only while the database is unavailable: this answer is what this instance last read, this many seconds ago (at most 24 hours)",
    type: "integer",
    optional: true,
  },
};

/**
 * What the answer to a counted request says of its key's (or install link's) limit
 * (lib/http/rate-limit-headers.ts): every operation the limit can refuse documents them on every
 * answer but the 401 of a key or link not known, which is not counted.
 */
const RATE_LIMIT_HEADER_SPEC: Record<string, HeaderSpec> = {
  "X-RateLimit-Limit": {
    description:
      "requests a window of one minute admits for this API key or install link; sent on every answer to a request that was counted (not when the deployment sets no limit)",
    type: "integer",
    optional: true,
  },
  "X-RateLimit-Remaining": {
    description:
      "requests the window still admits after this one, never below 0, and 0 on a 429; exact with one instance, approximate with several (each claims its share in chunks)",
    type: "integer",
    optional: true,
  },
  "X-RateLimit-Reset": {
    description:
      "seconds until the window ends and the whole limit is admitted again (a delay, as the IETF drafts' RateLimit-Reset, not a time); on a 429, the same as Retry-After",
    type: "integer",
    optional: true,
  },
};

const isCounted = (operation: Operation) => errorsOf(operation).includes("RateLimited");

function headersOf(headers: Record<string, HeaderSpec>): JsonSchema | undefined {
  if (Object.keys(headers).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, spec]) => [name, { description: spec.description, schema: { type: spec.type } }]),
  );
}

function contentOf(spec: ResponseSpec): JsonSchema {
  switch (spec.kind) {
    case "json":
      return { "application/json": { schema: schemaOf(spec.schema, "output") } };
    case "text":
      return { "text/plain": { schema: { type: "string" }, ...(spec.example !== undefined ? { example: spec.example } : {}) } };
    case "bytes":
      return { [spec.mediaType]: { schema: { type: "string", contentMediaType: spec.mediaType } } };
    case "file":
      return fileContent();
    case "empty":
      return {};
  }
}

/**
 * Every content type a file can be sent with, from the map the routes send them by
 * (lib/skills/content-types.ts): the Content-Type header is exactly one of these keys.
 */
function fileContent(): JsonSchema {
  return Object.fromEntries(
    servedContentTypes().map(({ contentType, extensions }) => {
      const which = extensions.length > 0 ? `a file ending ${extensions.join(" or ")}` : "a file with any other extension, or none";
      // A JSON media type's schema describes the parsed document, which may be any JSON value; the others are the text or bytes themselves.
      const schema = contentType === "application/json" ? {} : { type: "string", contentMediaType: contentType };
      return [contentType, { schema: { ...schema, description: which } }];
    }),
  );
}

function successResponses(operation: Operation): JsonSchema {
  const responses: JsonSchema = {};
  for (const [status, specs] of Object.entries(operation.responses)) {
    if (!specs) continue;
    const list = Array.isArray(specs) ? specs : [specs];
    const content = Object.assign({}, ...list.map(contentOf));
    const headers = headersOf({
      ...list.find((spec) => spec.headers)?.headers,
      ...(operation.servesStale && status === "200" ? STALE_HEADER_SPEC : {}),
      ...(isCounted(operation) ? RATE_LIMIT_HEADER_SPEC : {}),
    });
    responses[status] = {
      description: list.map((spec) => spec.description).join("; "),
      ...(headers ? { headers } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  return responses;
}

const RETRY_AFTER_SPEC: Record<string, HeaderSpec> = { "Retry-After": { description: "seconds to wait", type: "integer" } };

/** One response per error status, naming every code the operation can answer with it. */
function errorResponses(operation: Operation): JsonSchema {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(operation)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  const responses: JsonSchema = {};
  for (const [status, codes] of byStatus) {
    const extended = codes.map((code) => operation.errorBodies?.[code]).find(Boolean);
    const envelope = schemaOf(extended ?? errorEnvelope, "output") as { properties?: { error?: { properties?: { code?: JsonSchema } } } };
    const code = envelope.properties?.error?.properties;
    if (code) code.code = { type: "string", enum: codes };
    const headers = headersOf({
      ...(status === 429 || status === 503 ? RETRY_AFTER_SPEC : {}),
      ...(isCounted(operation) && status !== 401 ? RATE_LIMIT_HEADER_SPEC : {}),
    });
    responses[String(status)] = {
      description: codes.join(", "),
      ...(headers ? { headers } : {}),
      content: { "application/json": { schema: envelope } },
    };
  }
  return responses;
}

function requestBodyOf(operation: Operation): JsonSchema | undefined {
  const body = operation.body;
  if (!body) return undefined;
  const content: JsonSchema = { "application/json": { schema: schemaOf(body.schema, "input") } };
  for (const type of body.alsoAccepts ?? [])
    content[type] = { schema: { type: "string", contentMediaType: type, description: "the same tree as a tar archive, gzip'd" } };
  return { required: !body.optional, content };
}

function operationObject(operation: Operation): JsonSchema {
  const requestBody = requestBodyOf(operation);
  const parameters = parametersOf(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: operation.scope ? [{ apiKey: [operation.scope] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...successResponses(operation), ...errorResponses(operation) },
  };
}

/** `serverUrl`: where this deployment answers, so "try it" tools call it and not a placeholder. */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    const methods = (paths[operation.path] ??= {});
    methods[operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Skillgate API",
      version: "1",
      description:
        'Agent skills, served and measured. Errors are {"error": {"code", "message"}}; the message says what to fix. The agent-facing texts (listing, skill_view, ledger, lint) are text/plain.',
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl, description: "this deployment" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "a team API key (Authorization: Bearer <key>), with the scope each operation names",
        },
      },
    },
    paths,
  };
}
