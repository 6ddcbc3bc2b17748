import { describeDatabaseError } from "@/db/outage";

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
