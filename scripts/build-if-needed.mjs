// Builds the app with `next build` unless the last build was made from exactly these sources, and
// makes the empty embedded database a fresh start copies (scripts/pglite-template.mjs).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TEMPLATE_DIR } from "./pglite-template.mjs";

const SOURCES = [
  "app",
  "lib",
  "db",
  "components",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
];
const STAMP = path.join(".next", "skillgate-source-hash");

function hashSources(root) {
  const hash = createHash("sha256");
  const visit = (rel) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) visit(path.join(rel, entry));
    } else {
      hash.update(rel).update("\0").update(readFileSync(full)).update("\0");
    }
  };
  SOURCES.forEach(visit);
  return hash.digest("hex");
}

export function buildIfNeeded(root = process.cwd()) {
  const wanted = hashSources(root);
  const stamp = path.join(root, STAMP);
  const built = existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === wanted;
  if (built) {
    ensureTemplate(root);
    return false;
  }
  const started = Date.now();
  console.log("skillgate: building the app (first run only, about a minute; next build's progress follows)…");
  // The empty database belongs to the build before: the new one may bring another PGlite.
  rmSync(path.join(root, TEMPLATE_DIR), { recursive: true, force: true });
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  writeFileSync(stamp, wanted);
  console.log(`skillgate: built in ${seconds(Date.now() - started)} s`);
  ensureTemplate(root);
  return true;
}

/** The empty database a fresh data folder starts from; without it a fresh start runs initdb itself (about 10 s more). */
function ensureTemplate(root) {
  if (existsSync(path.join(root, TEMPLATE_DIR, "PG_VERSION"))) return;
  const started = Date.now();
  console.log("skillgate: preparing an empty embedded database for fresh starts (first run only)…");
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "pglite-template.mjs")], { cwd: root, stdio: "inherit" });
  // Not fatal: a fresh start still works without it, only slower.
  if (result.status !== 0)
    console.error(`skillgate: could not prepare the empty database (exit code ${result.status}); fresh starts run initdb instead`);
  else console.log(`skillgate: prepared in ${seconds(Date.now() - started)} s`);
}

const seconds = (ms) => (ms / 1000).toFixed(1);

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded();
