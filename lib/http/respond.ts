import { AppError, isAppError } from "../errors";

export function json(data: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(data, { status, headers });
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

export function errorBody(error: AppError) {
  return { error: { code: error.code, message: error.message } };
}

/** The one place errors become HTTP: a known code keeps its status and message, anything else is logged, not echoed. */
export function errorResponse(error: unknown): Response {
  const known = isAppError(error) ? error : asDatabaseOutage(error);
  if (known) {
    const headers: Record<string, string> =
      known.code === "RateLimited" ? { "retry-after": "60" } : known.code === "Unauthorized" ? { "www-authenticate": "Bearer" } : {};
    return json(errorBody(known), known.status, headers);
  }
  console.error("skillgate: unexpected error:", error);
  return json(errorBody(new AppError("InternalError", "internal error; the server log has the details")), 500);
}

const OUTAGE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "57P01", "57P03", "08000", "08001", "08003", "08006"]);
const OUTAGE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|PGlite is closed/i;

/** A database that cannot be reached answers 503 (SPEC §14), whatever driver wrapped the error. */
function asDatabaseOutage(error: unknown): AppError | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = (e as { message?: unknown }).message;
    if ((typeof code === "string" && OUTAGE_CODES.has(code)) || (typeof message === "string" && OUTAGE_MESSAGES.test(message))) {
      return new AppError("DatabaseUnavailable", "the database is unavailable; try again shortly");
    }
  }
  return null;
}
