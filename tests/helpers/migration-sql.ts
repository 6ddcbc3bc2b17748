import { readFileSync } from "node:fs";

/** The statements of a committed migration from `after` on (the whole file without it), to run again on data a test wrote. */
export function migrationStatements(file: string, after = ""): string[] {
  const migration = readFileSync(`db/migrations/${file}`, "utf8");
  const from = after ? migration.indexOf(after) : 0;
  if (from === -1) throw new Error(`db/migrations/${file} holds no "${after}"`);
  return migration
    .slice(from)
    .split("--> statement-breakpoint")
    .filter((statement) => statement.trim() !== "");
}

/** The statements with which the migration that made the usage rollups fills them from history already recorded. */
export function rollupBackfillStatements(): string[] {
  return migrationStatements("0018_usage_rollups.sql", "-- Backfill");
}
