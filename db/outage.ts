/**
 * Whether an error means the database cannot be reached (down, frozen, restarting) rather than
 * that it refused this query. The first answers 503 and is worth retrying; the second is a bug or
 * bad data and retrying it changes nothing. Drivers wrap errors differently (drizzle puts the
 * driver's error in `cause`), so the chain is walked.
 */
const OUTAGE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  // A query that ran out of its budget (db/budget.ts).
  "DATABASE_STALLED",
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

const OUTAGE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|PGlite is closed|Client has encountered a connection error|Client was closed and is not queryable|Connection ended unexpectedly|database query timed out/i;

export function isDatabaseOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = (e as { message?: unknown }).message;
    if (typeof code === "string" && OUTAGE_CODES.has(code)) return true;
    if (typeof message === "string" && OUTAGE_MESSAGES.test(message)) return true;
  }
  return false;
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
