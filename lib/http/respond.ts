import { isDatabaseBusy, isDatabaseOutage } from "@/db/outage";
import { logUnexpected } from "../log";
import { AppError, isAppError } from "../errors";

export function json(data: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(data, { status, headers });
}

/** A text answer; from bytes encoded once where the same text is sent again and again (the listing). */
export function text(body: string | Uint8Array<ArrayBuffer>, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

export function errorBody(error: AppError) {
  return { error: { code: error.code, message: error.message } };
}

/** What a bug answers: the details are in the log, never in the answer. */
export const INTERNAL_ERROR = new AppError("InternalError", "internal error; the server log has the details");

const DATABASE_UNAVAILABLE = "the database is unavailable; try again shortly";
/** How long a client should wait before retrying during an outage. */
const OUTAGE_RETRY_SECONDS = 5;
/** A burst passes in moments: retry soon, not at once. */
const OVERLOADED_RETRY_SECONDS = 1;
const OVERLOADED = `the server is busy; try again in ${OVERLOADED_RETRY_SECONDS} s`;

/**
 * What an error means for a client: our own errors as they are, an unreachable database as 503,
 * anything else as null (a bug: log it, never echo it). REST and MCP answer with its message alike.
 */
export function knownError(error: unknown): AppError | null {
  if (isAppError(error)) return error;
  if (isDatabaseOutage(error)) return new AppError("DatabaseUnavailable", DATABASE_UNAVAILABLE, OUTAGE_RETRY_SECONDS);
  if (isDatabaseBusy(error)) return new AppError("Overloaded", OVERLOADED, OVERLOADED_RETRY_SECONDS);
  return null;
}

/**
 * What an error answers, whatever the body's format: a known code keeps its status and message
 * with the headers it calls for; anything else is logged as `context`, not echoed.
 */
export function answeredError(error: unknown, context: string): { error: AppError; headers: Record<string, string> } {
  const known = knownError(error);
  if (!known) {
    logUnexpected(context, error);
    return { error: INTERNAL_ERROR, headers: {} };
  }
  const headers: Record<string, string> = {};
  if (known.retryAfterSeconds !== undefined) headers["retry-after"] = String(known.retryAfterSeconds);
  if (known.code === "Unauthorized") headers["www-authenticate"] = "Bearer";
  if (known.code === "InvalidToken")
    headers["www-authenticate"] = bearerChallenge({ error: "invalid_token", error_description: known.message });
  return { error: known, headers };
}

/** A `WWW-Authenticate: Bearer` value (RFC 6750 §3) with these parameters, quotes and backslashes left out of their values. */
export function bearerChallenge(params: Record<string, string>): string {
  const pairs = Object.entries(params).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "")}"`);
  return pairs.length === 0 ? "Bearer" : `Bearer ${pairs.join(", ")}`;
}

/** The one place errors become HTTP: the envelope of `answeredError`; `extraHeaders` add to its headers or replace them. */
export function errorResponse(error: unknown, extraHeaders: Record<string, string> = {}): Response {
  const answered = answeredError(error, "unexpected error");
  return json(errorBody(answered.error), answered.error.status, { ...answered.headers, ...extraHeaders });
}
