// `npm start`: build if needed, then serve the app. With no DATABASE_URL it runs on the embedded
// database in SKILLGATE_DATA_DIR with the demo team, and prints where to sign in and a demo API key.
// The server process itself opens, migrates and seeds the database (instrumentation.ts): never two
// processes on one PGlite folder.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { initWithoutTeam } from "../lib/init-config.mjs";
import { buildIfNeeded } from "./build-if-needed.mjs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "true" };
// A start-up key or lead without a team cannot be applied: refused here, before anything is built,
// in the words the server itself would use (lib/env.ts).
const withoutTeam = initWithoutTeam(env);
if (withoutTeam) {
  console.error(`skillgate: cannot start: configuration: ${withoutTeam}`);
  process.exit(1);
}
const port = env.PORT || "3000";
const dataDir = path.resolve(env.SKILLGATE_DATA_DIR || ".data");
mkdirSync(dataDir, { recursive: true });

/** A secret made once and kept in the data folder, so restarts keep sessions and the demo key. */
function kept(file, make) {
  const full = path.join(dataDir, file);
  if (!existsSync(full)) writeFileSync(full, make(), { mode: 0o600 });
  return readFileSync(full, "utf8").trim();
}

if (!env.AUTH_SECRET) {
  if (env.DATABASE_URL) {
    console.error("skillgate: set AUTH_SECRET (32+ random bytes, e.g. `openssl rand -base64 32`) when running against DATABASE_URL.");
    process.exit(1);
  }
  env.AUTH_SECRET = kept("auth-secret", () => randomBytes(32).toString("base64"));
}
env.AUTH_TRUST_HOST ??= "true";

// The demo's login, for when no start-up team is configured. The server makes it (and seeds the
// demo, and serves its global skills) only into a database that holds no other team: it alone
// knows the database (lib/demo/plan.ts), and says so when it leaves the demo out.
const demo = env.SKILLGATE_DEMO !== "0";
let demoLogin = null;
if (demo && !env.SKILLGATE_INIT_TEAM) {
  demoLogin = {
    email: "demo@skillgate.local",
    password: kept("demo-password", () => randomBytes(9).toString("base64url")),
    key: kept("demo-api-key", () => `sg_${randomBytes(24).toString("base64url")}`),
  };
  env.SKILLGATE_DEMO_API_KEY = demoLogin.key;
  env.SKILLGATE_DEMO_PASSWORD = demoLogin.password;
}

try {
  buildIfNeeded();
} catch (error) {
  console.error(`skillgate: ${error.message}`);
  process.exit(1);
}

// The start-up steps (opening, migrating, seeding) are said by the server as it does them (lib/root/boot.ts).
console.log(`skillgate: starting the server (next start on port ${port})…`);
const serverStarted = Date.now();
const server = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", port], { env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const healthy = await waitForHealth(`http://127.0.0.1:${port}/api/health`);
const url = `http://localhost:${port}`;
if (healthy) console.log(`skillgate: ready in ${((Date.now() - serverStarted) / 1000).toFixed(1)} s — sign in at ${url}/signin`);
const lines = [`Skillgate is running at ${url}`, `  database: ${env.DATABASE_URL ? "DATABASE_URL" : `embedded PGlite in ${dataDir}`}`];
if (demoLogin && (await demoKeyWorks(port, demoLogin.key))) {
  lines.push(
    `  sign in:  ${url}/signin  as ${demoLogin.email} / ${demoLogin.password}`,
    `  demo API key (team "demo"): ${demoLogin.key}`,
    `  try:      curl -H "Authorization: Bearer ${demoLogin.key}" ${url}/api/v1/listing`,
  );
} else {
  lines.push(`  sign in:  ${url}/signin`);
}
console.log(`\n${lines.join("\n")}\n`);

async function waitForHealth(healthUrl) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(healthUrl);
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.error("skillgate: the server did not become healthy within 150 s");
  return false;
}

/** Whether the server took the demo's login: it leaves the demo out of a database that holds other teams. */
async function demoKeyWorks(port, key) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/listing`, { headers: { authorization: `Bearer ${key}` } });
    return res.ok;
  } catch {
    return false;
  }
}
