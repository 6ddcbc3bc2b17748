/**
 * What a database error says of the server. Drivers wrap errors differently (drizzle puts the
 * driver's error in `cause`), so each question walks the chain.
 *
 * - A **server failure**: the server refused, reset or ended a connection, or said it is shutting
 *   down. Evidence enough to ask whether it is away (db/budgeted-pg.ts probes it).
 * - An **outage**: the database cannot be reached now — a server failure, or a query refused
 *   because a probe found the server away (`DatabaseStalled`). Answers 503 DatabaseUnavailable and
 *   lets agents' reads be served from memory.
 * - **Busy** (`DatabaseBusy`): the request's time ran out while the server answered others. Load,
 *   not an outage: 503 Overloaded.
 * Anything else is the server refusing this query: a bug or bad data, and retrying changes nothing.
 */
const SERVER_FAILURE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, and the connection exceptions.
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

const SERVER_FAILURE_MESSAGES =
  /Connection terminated unexpectedly|Connection ended unexpectedly|connect ECONNREFUSED|PGlite is closed|Client has encountered a connection error|Client was closed and is not queryable/i;

function someCause(error: unknown, test: (e: { code?: unknown; message?: unknown }) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e as { code?: unknown; message?: unknown })) return true;
  }
  return false;
}

export function isServerFailure(error: unknown): boolean {
  return someCause(
    error,
    ({ code, message }) =>
      (typeof code === "string" && SERVER_FAILURE_CODES.has(code)) ||
      (typeof message === "string" && SERVER_FAILURE_MESSAGES.test(message)),
  );
}

export function isDatabaseOutage(error: unknown): boolean {
  return someCause(error, ({ code }) => code === "DATABASE_STALLED") || isServerFailure(error);
}

export function isDatabaseBusy(error: unknown): boolean {
  return someCause(error, ({ code }) => code === "DATABASE_BUSY");
}

/** The database did not answer this request, away or busy: what agents read may come from memory instead, marked stale. */
export function isUnanswered(error: unknown): boolean {
  return isDatabaseOutage(error) || isDatabaseBusy(error);
}

/**
 * One line for the log about an error the database raised: the driver's message and code, and the
 * statement cut short — never the parameters, which hold people's data and key hashes.
 */
export function describeDatabaseError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const [message = ""] = String((e as { message?: unknown }).message ?? e).split("\n");
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${message} [${code}]` : message);
  }
  return parts.join(" ← ").slice(0, 600);
}
