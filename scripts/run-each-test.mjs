// `npm run test:alone [-- <files>]`: runs every integration test on its own, one vitest process
// each, and names those that fail. A test that needs what an earlier test left behind passes with
// its file and fails here. Set JOBS to change how many run at once.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";

const vitest = path.resolve("node_modules/vitest/vitest.mjs");
const scratch = mkdtempSync(path.join(tmpdir(), "skillgate-alone-"));
const listed = spawnSync(
  process.execPath,
  [vitest, "list", "--project", "integration", `--json=${path.join(scratch, "tests.json")}`, ...process.argv.slice(2)],
  {
    stdio: ["ignore", "ignore", "inherit"],
  },
);
if (listed.status !== 0) process.exit(listed.status ?? 1);
/** @type {{ name: string; file: string }[]} */
const tests = JSON.parse(readFileSync(path.join(scratch, "tests.json"), "utf8"));

// -t is a regular expression over the test's full name, its describe blocks' names joined by
// spaces; anchored at the end and escaped, it picks this test only (the count is checked below).
const pattern = (name) =>
  `${name
    .split(" > ")
    .join(" ")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;

/** Runs one test alone; resolves with null when exactly that test ran and passed, else with what went wrong. */
function runAlone(test, i) {
  const report = path.join(scratch, `${i}.json`);
  const args = [
    vitest,
    "run",
    test.file,
    "--project",
    "integration",
    "-t",
    pattern(test.name),
    "--reporter=json",
    `--outputFile=${report}`,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "ignore"] });
    child.on("close", (code) => {
      let result;
      try {
        result = JSON.parse(readFileSync(report, "utf8"));
      } catch {
        return resolve(`exit ${code}, no report`);
      }
      if (result.numPassedTests === 1 && result.numFailedTests === 0 && code === 0) return resolve(null);
      const messages = result.testResults
        .flatMap((file) => [file.message, ...file.assertionResults.flatMap((a) => a.failureMessages)])
        .filter(Boolean);
      resolve(
        `exit ${code}, ${result.numPassedTests} passed, ${result.numFailedTests} failed\n    ${(messages[0] ?? "").split("\n").slice(0, 4).join("\n    ")}`,
      );
    });
  });
}

const jobs = Number(process.env.JOBS) || availableParallelism();
const failed = [];
let next = 0;
const started = Date.now();
await Promise.all(
  Array.from({ length: jobs }, async () => {
    while (next < tests.length) {
      const i = next++;
      const test = tests[i];
      const problem = await runAlone(test, i);
      const where = `${path.relative(process.cwd(), test.file)} > ${test.name}`;
      console.log(`${problem ? "FAIL" : "ok  "} ${where}${problem ? `\n    ${problem}` : ""}`);
      if (problem) failed.push(where);
    }
  }),
);
console.log(`\n${tests.length - failed.length} of ${tests.length} tests pass alone (${Math.round((Date.now() - started) / 1000)} s)`);
for (const where of failed) console.log(`  failed alone: ${where}`);
process.exit(failed.length > 0 ? 1 : 0);
