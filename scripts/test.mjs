// `npm test`: every test — unit, integration (PGlite, and PostgreSQL when TEST_DATABASE_URL is set)
// and browser tests in headless Chromium against the built app. Installs Chromium where it can.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { findChromium } from "./chromium.mjs";

const VITEST = "node_modules/vitest/vitest.mjs";
/** Where each run's per-file durations go (vitest's JSON report), and the sorted list made from them. */
const DURATIONS = path.join("tests", ".artifacts", "durations");

/**
 * Run once both lanes are done, with the machine to themselves. The installer's burst asks a cold
 * server for 2,000 files at once: with the browser lane on the same two cores, Next's ~6 ms of CPU
 * a request on a cold process left answers that had to wait on the database past their 4 s and
 * answered 503 Overloaded (seen in CI at 1f1dbff). What a busy machine does to it is the product's
 * question (docs/decisions/test-suite.md), not a reason for the test to fail at random.
 */
const ALONE = ["tests/servers/installer-burst.test.ts"];

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
const args = process.argv.slice(2);
if (args.length > 0) {
  // Files or options named: one run of exactly that, as `vitest run` would do it.
  const result = spawnSync(process.execPath, [VITEST, "run", ...args], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
process.exit(await runLanes());

/**
 * Every test, in two lanes that run at once (docs/decisions/test-suite.md): the browser lane builds
 * the app and drives Chromium against one shared server; the other runs the unit and integration
 * tests, which need no build, and then the tests that start servers of their own from the build.
 * Each is mostly waiting — on Chromium, on the server, on PostgreSQL — so on two cores they take
 * little more than the longer of the two. Then the tests in `ALONE`, with the machine to
 * themselves. Each line says its lane.
 */
async function runLanes() {
  const started = Date.now();
  rmSync(DURATIONS, { recursive: true, force: true });
  mkdirSync(DURATIONS, { recursive: true });
  const built = run("browser", ["scripts/build-if-needed.mjs"]);
  const browser = built.then((status) => (status === 0 ? vitest("browser", ["browser"]) : status));
  const other = vitest("api", ["unit", "integration"]).then(async (status) => {
    const buildStatus = await built;
    const exclude = ALONE.flatMap((file) => ["--exclude", file]);
    return Math.max(status, buildStatus === 0 ? await vitest("api", ["servers"], exclude, "servers") : buildStatus);
  });
  const statuses = await Promise.all([browser, other]);
  if ((await built) === 0) statuses.push(await vitest("alone", ["servers"], ALONE, "alone"));
  reportDurations(Date.now() - started);
  return statuses.every((status) => status === 0) ? 0 : 1;
}

function vitest(lane, projects, extra = [], name = projects.join("+")) {
  const report = path.join(DURATIONS, `${name}.json`);
  const selected = projects.flatMap((project) => ["--project", project]);
  return run(lane, [VITEST, "run", ...selected, ...extra, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
}

/** Runs node with `args`, each line of its output said with the lane's name; resolves to its exit status. */
function run(lane, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: colours() });
    const label = `[${lane}]`.padEnd(10);
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${label}${line}\n`));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** The lanes' output goes through a pipe: coloured as vitest would colour it here, on a terminal only. */
function colours() {
  if ("NO_COLOR" in process.env || "FORCE_COLOR" in process.env) return process.env;
  return process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : { ...process.env, NO_COLOR: "1" };
}

/** The slowest files of this run, and every file's time in tests/.artifacts/durations/files.txt. */
function reportDurations(wallMs) {
  const files = readdirSync(DURATIONS)
    .filter((name) => name.endsWith(".json"))
    .flatMap((name) => JSON.parse(readFileSync(path.join(DURATIONS, name), "utf8")).testResults)
    .map((file) => ({ seconds: (file.endTime - file.startTime) / 1000, file: path.relative(process.cwd(), file.name) }))
    .sort((a, b) => b.seconds - a.seconds);
  const lines = files.map(({ seconds, file }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
  writeFileSync(path.join(DURATIONS, "files.txt"), `${lines.join("\n")}\n`);
  console.log(`\nskillgate: every test in ${(wallMs / 1000).toFixed(0)} s; the ten slowest files (all in ${DURATIONS}/files.txt):`);
  console.log(lines.slice(0, 10).join("\n"));
}
