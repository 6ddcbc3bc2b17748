import { spawn } from "node:child_process";
import path from "node:path";

/**
 * The real `skills` installer (`npx skills add <url>`, the npm package the tests depend on), run
 * in a folder of its own with its own home, no telemetry and no colours: it reaches nothing but the
 * app. What it prints comes back without terminal escapes, with a line for each of its fetches that
 * failed (installer-fetch-failures.mjs): it drops those files without a word.
 */
export function runSkillsInstaller(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const observer = path.resolve("tests/helpers/installer-fetch-failures.mjs");
    const child = spawn(process.execPath, ["--import", observer, path.resolve("node_modules/skills/bin/cli.mjs"), ...args], {
      cwd,
      env: { ...process.env, HOME: cwd, DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1", NO_COLOR: "1", CI: "1" },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end();
    child.on("close", (code) => resolve({ code, out: out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "") }));
  });
}
