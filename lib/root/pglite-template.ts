import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { lockDataDir } from "@/db/data-dir-lock";

/** The empty database the build makes (scripts/pglite-template.mjs). */
const TEMPLATE_DIR = path.join(process.cwd(), ".next", "skillgate-pglite-template");

/** Whether PGlite would have to create a database in this folder (none there yet); never for memory://. */
export function isFreshPgliteFolder(dataDir: string): boolean {
  return !dataDir.startsWith("memory://") && !existsSync(path.join(dataDir, "PG_VERSION"));
}

/**
 * Fills a fresh data folder with a copy of the build's empty database, so PGlite opens it instead
 * of running initdb (most of a fresh start's time). Done holding the folder's lock, so a second
 * process never copies over a database the first has opened; PG_VERSION goes last, so a copy cut
 * short is not taken for a database and is made again. Returns false, leaving the folder to
 * PGlite's own initdb, when there is no template or another process holds the folder (opening
 * then says who).
 */
export async function copyPgliteTemplate(dataDir: string): Promise<boolean> {
  if (!isFreshPgliteFolder(dataDir) || !existsSync(path.join(TEMPLATE_DIR, "PG_VERSION"))) return false;
  mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir).catch(() => null);
  if (!release) return false;
  try {
    if (!isFreshPgliteFolder(dataDir)) return false;
    for (const entry of readdirSync(TEMPLATE_DIR)) {
      if (entry !== "PG_VERSION") cpSync(path.join(TEMPLATE_DIR, entry), path.join(dataDir, entry), { recursive: true, force: true });
    }
    cpSync(path.join(TEMPLATE_DIR, "PG_VERSION"), path.join(dataDir, "PG_VERSION"));
    return true;
  } finally {
    await release();
  }
}
