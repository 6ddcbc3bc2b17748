import { expect } from "vitest";
import type { z } from "zod";
import { errorStatus, type ErrorCode } from "@/lib/errors";
import { OPERATIONS } from "@/lib/contracts";
import { errorEnvelope, errorsOf, type Operation, type ResponseSpec } from "@/lib/contracts/operation";
import { openApiDocument } from "@/lib/contracts/openapi";
import { contentTypeOf } from "@/lib/skills/content-types";
import { installerRoute } from "@/lib/http/installer-paths";
import { isDecodablePath } from "@/lib/http/path-encoding";

/**
 * Every response an integration test receives is checked against the contract of the operation
 * it answers (lib/contracts), which is also what the OpenAPI document is generated from: a
 * documented status; for a success, a body of the documented shape with a content type the
 * document lists for it (a file's: the one its extension has); for an error, the envelope with a
 * code the operation documents, at that code's status.
 */

type DocumentResponses = Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
const DOCUMENT = openApiDocument("/") as unknown as { paths: Record<string, Record<string, { responses: DocumentResponses }>> };

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function patternOf(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith("{")) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
      // A file's path may hold slashes (a catch-all segment).
      return part === "{path}" || part === "{file}" ? ".+" : "[^/]+";
    })
    .join("");
  return new RegExp(`^${source}$`);
}

/**
 * Operations are matched on the path their route answers: an installer's public path (what the
 * contract documents) is taken where the proxy sends it (lib/http/installer-paths.ts), so a request
 * to either the public path or the internal route is checked against the same operation.
 */
const routedPath = (path: string) => installerRoute(path) ?? path;

const routes = OPERATIONS.map((operation) => ({
  operation,
  pattern: patternOf(routedPath(operation.path)),
  params: (operation.path.match(/\{/g) ?? []).length,
}));

/** The operation a request reaches: a literal path before a template, as Next routes it. */
export function operationFor(method: string, pathname: string): Operation | "wrong-method" | null {
  const path = routedPath(pathname);
  const matching = routes.filter((route) => route.pattern.test(path)).sort((a, b) => a.params - b.params);
  if (matching.length === 0) return null;
  return matching.find((route) => route.operation.method === method)?.operation ?? "wrong-method";
}

function fail(what: string, detail: string): never {
  throw new Error(`contract: ${what}: ${detail}`);
}

function check(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  if (!result.success) fail(what, JSON.stringify(result.error.issues.slice(0, 3)));
}

function kindOf(contentType: string | null): ResponseSpec["kind"] {
  if (!contentType) return "empty";
  if (/^application\/json\b/.test(contentType)) return "json";
  if (/^text\/plain; charset=utf-8$/.test(contentType)) return "text";
  return "bytes";
}

/** The media types the OpenAPI document lists for an operation's response with this status. */
function documentedMediaTypes(operation: Operation, status: number): string[] {
  const responses = DOCUMENT.paths[operation.path]?.[operation.method.toLowerCase()]?.responses;
  return Object.keys(responses?.[String(status)]?.content ?? {});
}

/** As a validating proxy matches it: the exact type with its parameters, or a documented type without parameters by its base. */
function isListed(contentType: string, documented: string[]): boolean {
  const base = contentType.split(";")[0]!.trim();
  return documented.some((type) => type === contentType || (!type.includes(";") && type === base));
}

async function checkSuccess(operation: Operation, res: Response, what: string, pathname: string): Promise<void> {
  const documented = operation.responses[res.status as keyof Operation["responses"]];
  if (!documented) fail(what, `status ${res.status} is not documented`);
  const specs = Array.isArray(documented) ? documented : [documented];
  const body = await res.clone().text();
  const contentType = res.headers.get("content-type");
  const kind = body === "" && res.status !== 200 ? "empty" : kindOf(contentType);
  // A file is bytes whatever its type (a .txt comes back as text/plain), with the type of its extension.
  const spec =
    specs.find((candidate) => candidate.kind === kind) ??
    specs.find((candidate) => (candidate.kind === "bytes" || candidate.kind === "file") && kind !== "empty");
  if (!spec) fail(what, `a ${kind} body (${contentType}) where the contract says ${specs.map((s) => s.kind).join(" or ")}`);
  if (kind !== "empty") {
    const listed = documentedMediaTypes(operation, res.status);
    if (!isListed(contentType ?? "", listed))
      fail(what, `content type ${contentType} is not in the OpenAPI document's ${res.status} (${listed.join(", ")})`);
  }
  if (spec.kind === "file" && contentType !== contentTypeOf(safeDecode(pathname)))
    fail(what, `a file sent as ${contentType}, where its extension says ${contentTypeOf(safeDecode(pathname))}`);
  if (spec.kind === "json") check(spec.schema, JSON.parse(body), `${what} ${res.status} body`);
  for (const [header, { optional }] of Object.entries(spec.headers ?? {})) {
    if (res.status < 300 && !optional && !res.headers.has(header)) fail(what, `header ${header} is documented but missing`);
  }
}

async function checkError(operation: Operation | null, res: Response, what: string): Promise<void> {
  const body = JSON.parse(await res.clone().text()) as { error?: { code?: string } };
  if (!operation) {
    check(errorEnvelope, body, `${what} error`);
    return;
  }
  const codes = errorsOf(operation).filter((code) => errorStatus[code] === res.status);
  if (codes.length === 0) fail(what, `status ${res.status} is not documented (codes: ${errorsOf(operation).join(", ")})`);
  const own = codes.map((code) => operation.errorBodies?.[code]).find((schema) => schema?.safeParse(body).success);
  if (own) return;
  check(errorEnvelope, body, `${what} error`);
  const code = body.error!.code as ErrorCode;
  if (!codes.includes(code)) fail(what, `error code ${code} at ${res.status} is not documented (documented: ${codes.join(", ")})`);
}

const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

/**
 * The rate-limit headers (lib/http/rate-limit-headers.ts): all three or none; whole numbers, the
 * remaining within the limit and the reset within the minute's window; on every 429, with nothing
 * remaining and the reset the same as Retry-After; never on a 401 (a key or link not known is not
 * counted); and only where the OpenAPI document says so.
 */
function checkRateLimitHeaders(operation: Operation | null, res: Response, what: string): void {
  const values = RATE_LIMIT_HEADERS.map((name) => res.headers.get(name));
  if (res.status === 429 && values.some((value) => value === null)) fail(what, "a 429 without its X-RateLimit-* headers");
  if (values.every((value) => value === null)) return;
  if (values.some((value) => value === null || !/^\d+$/.test(value))) fail(what, `X-RateLimit-* headers ${JSON.stringify(values)}`);
  const [limit, remaining, reset] = values.map(Number) as [number, number, number];
  if (remaining > limit || reset < 1 || reset > 60) fail(what, `X-RateLimit-* headers ${JSON.stringify(values)} out of range`);
  if (res.status === 401) fail(what, "a 401 with X-RateLimit-* headers: a key or link not known is not counted");
  if (res.status === 429 && (remaining !== 0 || String(reset) !== res.headers.get("retry-after")))
    fail(what, `a 429 with X-RateLimit-* headers ${JSON.stringify(values)} and Retry-After ${res.headers.get("retry-after")}`);
  if (!operation) return;
  const documented = DOCUMENT.paths[operation.path]?.[operation.method.toLowerCase()]?.responses[String(res.status)]?.headers ?? {};
  for (const name of RATE_LIMIT_HEADERS)
    if (!(name in documented)) fail(what, `header ${name} is sent at ${res.status} but the OpenAPI document does not list it`);
}

export async function checkResponse(req: Request, res: Response): Promise<Response> {
  const { pathname } = new URL(req.url);
  const found = operationFor(req.method, pathname);
  const what = `${req.method} ${pathname}`;
  // Answered before any route: the proxy's 400 for a path Next cannot decode, and CORS-style OPTIONS.
  if (!isDecodablePath(pathname)) {
    expect(res.status, what).toBe(400);
    return res;
  }
  if (req.method === "OPTIONS" || req.method === "HEAD") return res;
  // OTLP's own contract (google.rpc.Status errors, protobuf bodies): its tests check each answer.
  if (pathname.startsWith("/api/otlp/")) return res;
  // OAuth's own contracts (RFC 6749, 7591, 8414, 9728: `{error, error_description}` errors): tests/integration/oauth.test.ts checks each answer.
  if (pathname.startsWith("/api/oauth/") || /^\/\.well-known\/(oauth-|openid-)/.test(pathname)) return res;
  try {
    if (found === null || found === "wrong-method") {
      // No route, or a method the route has not: the envelope of 404 or 405, nothing else; under an
      // install link, the link is checked first (401 for one not valid), so an installer is told so.
      const refusals = pathname.startsWith("/i/") ? [401, 404, 405] : [404, 405];
      if (res.status !== 400) expect(refusals, `${what} matches no operation`).toContain(res.status);
      await checkError(null, res, what);
    } else if (res.status < 400) await checkSuccess(found, res, what, pathname);
    else await checkError(found, res, what);
    checkRateLimitHeaders(found === "wrong-method" ? null : found, res, what);
  } catch (error) {
    if (error instanceof SyntaxError) fail(what, `the body is not JSON: ${(await res.clone().text()).slice(0, 200)}`);
    throw error;
  }
  return res;
}
