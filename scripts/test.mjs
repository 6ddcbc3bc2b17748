// `npm test`: every test — unit, integration (PGlite, and PostgreSQL when TEST_DATABASE_URL is set)
// and browser tests in headless Chromium against the built app. Installs Chromium where it can.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { findChromium } from "./chromium.mjs";

function tryInstallChromium() {
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!root || !apt) return;
  console.log("skillgate: Chromium is missing; installing Debian's chromium for the browser tests…");
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "-q", "chromium", "fonts-liberation"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  if (install().status !== 0) {
    spawnSync("apt-get", ["update", "-q"], { stdio: "inherit" });
    install();
  }
}

if (!findChromium()) tryInstallChromium();
if (!findChromium()) {
  console.error(
    "skillgate: the browser tests need Chromium. Install it with `sudo apt-get install chromium fonts-liberation`\n" +
      "(or set CHROMIUM_PATH to a Chromium or Chrome binary), then run `npm test` again.",
  );
  process.exit(1);
}
if (!process.env.TEST_DATABASE_URL) {
  console.log("skillgate: TEST_DATABASE_URL is not set: integration tests run on PGlite only.");
} else {
  // The tests that own a cluster, and those behind a pooler, need binaries of their own (.ci/run installs them).
  if (
    !existsSync("/usr/lib/postgresql") ||
    !readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
  )
    console.log(
      "skillgate: PostgreSQL's server binaries are missing: the freeze and restart tests are skipped (apt-get install postgresql).",
    );
  if (!existsSync("/usr/sbin/pgbouncer") && !existsSync("/usr/bin/pgbouncer"))
    console.log("skillgate: PgBouncer is missing: the tests behind a pooler in transaction mode are skipped (apt-get install pgbouncer).");
}
const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
