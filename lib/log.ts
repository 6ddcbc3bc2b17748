import { describeDatabaseError, isDatabaseBusy } from "@/db/outage";

/** Logs an error we did not expect: its causes in one line and where it was thrown, never query parameters. */
export function logUnexpected(context: string, error: unknown): void {
  // A stack starts with the message, and drizzle's messages end with the parameters: keep only the frames.
  const frames =
    error instanceof Error && error.stack
      ? error.stack
          .split("\n")
          .filter((line) => /^\s+at /.test(line))
          .slice(0, 5)
      : [];
  const stack = frames.length > 0 ? `\n${frames.join("\n")}` : "";
  console.error(`skillgate: ${context}: ${describeDatabaseError(error)}${stack}`);
}

/**
 * Failures we expect — the database away — said once when they start and once when they end,
 * with how many there were in between, per kind of work: an hour's outage is two lines per kind,
 * not thousands, and never a stack trace.
 */
export class OutageLog {
  private readonly open = new Map<string, { since: number; failures: number }>();

  failed(kind: string, error: unknown): void {
    const outage = this.open.get(kind);
    if (outage) {
      outage.failures++;
      return;
    }
    this.open.set(kind, { since: Date.now(), failures: 1 });
    const state = isDatabaseBusy(error) ? "is busy" : "is unavailable";
    console.error(`skillgate: ${kind}: the database ${state} (${describeDatabaseError(error)}); trying again until it answers`);
  }

  recovered(kind: string): void {
    const outage = this.open.get(kind);
    if (!outage) return;
    this.open.delete(kind);
    const seconds = Math.round((Date.now() - outage.since) / 1000);
    console.error(`skillgate: ${kind}: the database answers again, after ${outage.failures} failed attempt(s) over ${seconds} s`);
  }
}
