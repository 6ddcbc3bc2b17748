import { readFileSync } from "node:fs";

/** The statements with which the migration that made the usage rollups fills them from history already recorded. */
export function rollupBackfillStatements(): string[] {
  const migration = readFileSync("db/migrations/0018_usage_rollups.sql", "utf8");
  return migration.slice(migration.indexOf("-- Backfill")).split("--> statement-breakpoint");
}
