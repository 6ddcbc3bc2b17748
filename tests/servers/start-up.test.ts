import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { teams, users } from "@/db/schema";
import { freePort, nextStartToExit, startServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

const MIGRATIONS = (JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;
const SECONDS = String.raw`\d+\.\d s`;
const ACME_KEY = "sg_start_up_test_key_acme_00000001";

/** The block `npm start` ends with: where it runs, and how to sign in (with the demo's key when the demo is in). */
const SIGN_IN_BLOCK = /\nSkillgate is running at [^\n]*\n(?: {2}[^\n]*\n)+\n/;

/**
 * `npm start` (scripts/start.mjs) on a data folder, until it has printed its sign-in lines; then
 * `whileRunning` is given its port, and it is stopped. Its output, and the port it ran on. The app
 * is already built (globalSetup).
 */
async function npmStart(dataDir: string, whileRunning?: (port: number) => Promise<void>): Promise<{ output: string; port: number }> {
  const port = await freePort();
  // Started as a new user would: no secret, no init configuration; npm start makes the demo's.
  const inherited = Object.entries(process.env).filter(([name]) => name !== "AUTH_SECRET" && !name.startsWith("SKILLGATE_INIT_"));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    NODE_ENV: "production",
    PORT: String(port),
    SKILLGATE_DATA_DIR: dataDir,
    SKILLGATE_DEMO: "1",
    DATABASE_URL: "",
  };
  const child = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    await waitUntil(
      () => output,
      (text) => SIGN_IN_BLOCK.test(text) || child.exitCode !== null,
      { what: "npm start to print its sign-in lines", timeoutMs: 80_000, intervalMs: 100 },
    );
    await whileRunning?.(port);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return { output, port };
}

/** The lines start-up says of itself, in order; warnings (configuration) are another test's concern. */
const progress = (output: string) =>
  output.split("\n").filter((line) => line.startsWith("skillgate: ") && !line.startsWith("skillgate: warning: "));

describe("npm start", () => {
  it("ends, its server with it, within 10 s of a SIGTERM sent to npm itself, as a process manager sends it", async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      SKILLGATE_DATA_DIR: mkdtempSync(path.join(tmpdir(), "skillgate-sigterm-")),
      SKILLGATE_DEMO: "0",
      DATABASE_URL: "",
    };
    // A process group of its own: whatever is left of it afterwards can be ended at once.
    const npm = spawn("npm", ["start"], { env, stdio: "ignore", detached: true });
    const live = () =>
      fetch(`http://127.0.0.1:${port}/api/live`).then(
        (res) => res.status,
        () => 0,
      );
    try {
      await waitUntil(live, (status) => status === 200, { what: "npm start's server to answer", timeoutMs: 80_000, intervalMs: 100 });
      const sent = Date.now();
      npm.kill("SIGTERM");
      await waitUntil(live, (status) => status === 0, {
        what: "the server to stop listening after SIGTERM to npm",
        timeoutMs: 10_000,
        intervalMs: 100,
      });
      expect(Date.now() - sent).toBeLessThan(10_000);
    } finally {
      try {
        process.kill(-npm.pid!, "SIGKILL");
      } catch {
        // Every process of the group has ended.
      }
    }
  });

  it("says each start-up step as it begins it, then the sign-in lines; a restart opens, checks and seeds nothing", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "skillgate-start-up-"));
    const fresh = await npmStart(dataDir);
    const url = `http://localhost:${fresh.port}`;
    const lines = progress(fresh.output);
    expect(lines.slice(0, 7)).toEqual([
      `skillgate: starting the server (next start on port ${fresh.port})…`,
      `skillgate: creating the database (PGlite in ${dataDir})…`,
      `skillgate: database: PGlite in ${dataDir} for everything`,
      `skillgate: migrating (${MIGRATIONS} of ${MIGRATIONS} migrations to apply)…`,
      "skillgate: loading skills, applying the start-up teams, keys and users…",
      "skillgate: seeding the demo team (first start only)…",
      "skillgate: taking over unfinished runs and evaluations…",
    ]);
    expect(lines[7]).toMatch(
      new RegExp(
        `^skillgate: database ready \\(pglite, ${dataDir}\\) in ${SECONDS}: opening ${SECONDS}, migrating ${SECONDS}, configuring ${SECONDS}, seeding ${SECONDS}, recovering ${SECONDS}$`,
      ),
    );
    expect(lines[8]).toMatch(new RegExp(`^skillgate: ready in ${SECONDS} — sign in at ${url}/signin$`));
    expect(lines).toHaveLength(9);

    // The sign-in lines come after every progress line, as they always were.
    const password = readFileSync(path.join(dataDir, "demo-password"), "utf8").trim();
    const key = readFileSync(path.join(dataDir, "demo-api-key"), "utf8").trim();
    const signIn = [
      `Skillgate is running at ${url}`,
      `  database: embedded PGlite in ${dataDir}`,
      `  sign in:  ${url}/signin  as demo@skillgate.local / ${password}`,
      `  demo API key (team "demo"): ${key}`,
      `  try:      curl -H "Authorization: Bearer ${key}" ${url}/api/v1/listing`,
    ].join("\n");
    expect(fresh.output).toContain(`\n${signIn}\n`);
    expect(fresh.output.indexOf(signIn)).toBeGreaterThan(fresh.output.indexOf(lines[8]!));

    const restart = await npmStart(dataDir);
    const again = progress(restart.output);
    expect(again.slice(0, 6)).toEqual([
      `skillgate: starting the server (next start on port ${restart.port})…`,
      `skillgate: opening the database (PGlite in ${dataDir})…`,
      `skillgate: database: PGlite in ${dataDir} for everything`,
      `skillgate: checking migrations (all ${MIGRATIONS} applied)…`,
      "skillgate: loading skills, applying the start-up teams, keys and users…",
      "skillgate: taking over unfinished runs and evaluations…",
    ]);
    expect(again[6]).toMatch(
      new RegExp(
        `^skillgate: database ready \\(pglite, ${dataDir}\\) in ${SECONDS}: opening ${SECONDS}, migrating ${SECONDS}, configuring ${SECONDS}, recovering ${SECONDS}$`,
      ),
    );
    expect(again[7]).toMatch(new RegExp(`^skillgate: ready in ${SECONDS} — sign in at http://localhost:${restart.port}/signin$`));
    expect(again).toHaveLength(8);
    expect(restart.output).toContain(`  sign in:  http://localhost:${restart.port}/signin  as demo@skillgate.local / ${password}\n`);
  });
});

describe("npm start on a database that holds a real team", () => {
  it("leaves the demo team, its login and its global skills out, and says why", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "skillgate-real-team-"));
    // A real team's database, made by the server started directly with the demo off.
    const real = await startServer({
      SKILLGATE_DATA_DIR: dataDir,
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "acme",
      SKILLGATE_INIT_API_KEY: ACME_KEY,
    });
    await real.stop();

    let scopes: string[] = [];
    const started = await npmStart(dataDir, async (port) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/skills`, { headers: { authorization: `Bearer ${ACME_KEY}` } });
      scopes = [...new Set(((await res.json()) as { skills: { scope: string }[] }).skills.map((skill) => skill.scope))].sort();
    });
    const url = `http://localhost:${started.port}`;
    const lines = progress(started.output);
    expect(lines.slice(0, 7)).toEqual([
      `skillgate: starting the server (next start on port ${started.port})…`,
      `skillgate: opening the database (PGlite in ${dataDir})…`,
      `skillgate: database: PGlite in ${dataDir} for everything`,
      `skillgate: checking migrations (all ${MIGRATIONS} applied)…`,
      "skillgate: loading skills, applying the start-up teams, keys and users…",
      'skillgate: not seeding the demo team: the database already holds 1 team(s) besides "demo", and the demo goes only into an empty database; ' +
        "its global skills and login are left out too (start on an empty database to see the demo; SKILLGATE_DEMO=0 silences this)",
      "skillgate: taking over unfinished runs and evaluations…",
    ]);
    expect(lines).toHaveLength(9);
    expect(started.output).toContain(
      `\nSkillgate is running at ${url}\n  database: embedded PGlite in ${dataDir}\n  sign in:  ${url}/signin\n\n`,
    );
    // The real team sees its built-in skills, and none of the demo's global ones.
    expect(scopes).toEqual(["builtin"]);

    const database = await openDatabase({ dataDir });
    try {
      expect((await database.db.select({ slug: teams.slug }).from(teams)).map((row) => row.slug)).toEqual(["acme"]);
      expect(await database.db.$count(users)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe("next start with a start-up key or lead but no SKILLGATE_INIT_TEAM", () => {
  it.each([
    [
      "SKILLGATE_INIT_API_KEY",
      "skillgate: cannot start: configuration: SKILLGATE_INIT_API_KEY is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the key is for, or unset SKILLGATE_INIT_API_KEY",
    ],
    [
      "SKILLGATE_INIT_USER_EMAIL",
      "skillgate: cannot start: configuration: SKILLGATE_INIT_USER_EMAIL is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the user leads, or unset SKILLGATE_INIT_USER_EMAIL",
    ],
    [
      "SKILLGATE_INIT_USER_PASSWORD",
      "skillgate: cannot start: configuration: SKILLGATE_INIT_USER_PASSWORD is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the user leads, or unset SKILLGATE_INIT_USER_PASSWORD",
    ],
  ])("refuses %s, saying what to set, before it opens the database", async (name, line) => {
    const { code, output } = await nextStartToExit({
      SKILLGATE_DATA_DIR: mkdtempSync(path.join(tmpdir(), "skillgate-refusal-")),
      SKILLGATE_DEMO: "1",
      [name]: "set-by-the-operator",
    });
    expect(code).toBe(1);
    expect(output.split("\n").filter((text) => text.startsWith("skillgate: "))).toEqual([line]);
  });
});
