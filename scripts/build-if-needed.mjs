// Builds the app with `next build` unless the last build was made from exactly these sources.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

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
  if (built) return false;
  console.log("skillgate: building the app (next build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
  writeFileSync(stamp, wanted);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded();
