// Makes an empty embedded database (PGlite's initdb, the slowest part of a fresh start) once per
// build, so a fresh data folder starts from a copy of it (lib/root/pglite-template.ts).
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/** Where the build keeps the empty database; a new build (new PGlite, new sources) makes it again. */
export const TEMPLATE_DIR = path.join(".next", "skillgate-pglite-template");

export async function makePgliteTemplate(root = process.cwd()) {
  const target = path.join(root, TEMPLATE_DIR);
  if (existsSync(path.join(target, "PG_VERSION"))) return false;
  // Made aside, then renamed: a start-up never sees half a template.
  const aside = `${target}.tmp-${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(aside, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const client = new PGlite(aside);
  await client.waitReady;
  await client.close();
  rmSync(target, { recursive: true, force: true });
  renameSync(aside, target);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) await makePgliteTemplate();
