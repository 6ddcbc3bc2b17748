import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEnv } from "@/lib/env";

/** Issue 28: a start-up key or lead with no team is refused, saying exactly what to set. */
const REFUSALS: [Record<string, string>, string][] = [
  [
    { SKILLGATE_INIT_API_KEY: "sg_a_key_of_my_own_0123456789" },
    "configuration: SKILLGATE_INIT_API_KEY is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the key is for, or unset SKILLGATE_INIT_API_KEY",
  ],
  [
    { SKILLGATE_INIT_USER_EMAIL: "lead@example.com" },
    "configuration: SKILLGATE_INIT_USER_EMAIL is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the user leads, or unset SKILLGATE_INIT_USER_EMAIL",
  ],
  [
    { SKILLGATE_INIT_USER_PASSWORD: "correct horse" },
    "configuration: SKILLGATE_INIT_USER_PASSWORD is set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the user leads, or unset SKILLGATE_INIT_USER_PASSWORD",
  ],
  [
    { SKILLGATE_INIT_USER_EMAIL: "lead@example.com", SKILLGATE_INIT_USER_PASSWORD: "correct horse" },
    "configuration: SKILLGATE_INIT_USER_EMAIL and SKILLGATE_INIT_USER_PASSWORD are set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) the user leads, or unset them",
  ],
  [
    {
      SKILLGATE_INIT_API_KEY: "sg_a_key_of_my_own_0123456789",
      SKILLGATE_INIT_USER_EMAIL: "lead@example.com",
      SKILLGATE_INIT_USER_PASSWORD: "x",
    },
    "configuration: SKILLGATE_INIT_API_KEY, SKILLGATE_INIT_USER_EMAIL and SKILLGATE_INIT_USER_PASSWORD are set but SKILLGATE_INIT_TEAM is not: set SKILLGATE_INIT_TEAM to the team(s) they are for, or unset them",
  ],
];

describe("the server's configuration", () => {
  it.each(REFUSALS)("refuses %o without SKILLGATE_INIT_TEAM", (env, message) => {
    expect(() => readEnv(env)).toThrow(message);
    // A blank team is no team (as an unset one), and a blank key no key.
    expect(() => readEnv({ ...env, SKILLGATE_INIT_TEAM: " " })).toThrow(message);
  });

  it("takes them with a team, and takes no team with nothing that needs one", () => {
    expect(
      readEnv({
        SKILLGATE_INIT_TEAM: "red",
        SKILLGATE_INIT_API_KEY: "k",
        SKILLGATE_INIT_USER_EMAIL: "a@b.c",
        SKILLGATE_INIT_USER_PASSWORD: "p",
      }).init,
    ).toEqual({
      teams: ["red"],
      apiKeys: ["k"],
      userEmails: ["a@b.c"],
      userPasswords: ["p"],
    });
    expect(readEnv({ SKILLGATE_INIT_API_KEY: "" }).init.teams).toEqual([]);
  });
});

/** `npm start` with the given variables and no others of SKILLGATE_INIT_*, run to its exit. */
function npmStart(vars: Record<string, string>, dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("SKILLGATE_INIT_"));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    NODE_ENV: "production",
    SKILLGATE_DATA_DIR: dataDir,
    SKILLGATE_DEMO: "1",
    ...vars,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // A start that was not refused would build and serve: stopped, and the test sees no exit code 1.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// Each case spawns node; on a loaded two-core machine that takes longer than vitest's default 5 s.
describe("npm start", { timeout: 30_000 }, () => {
  it.each(REFUSALS)(
    "refuses %o without SKILLGATE_INIT_TEAM before it builds or makes anything, in the server's words",
    async (vars, message) => {
      const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "skillgate-refusal-")), "data");
      expect(await npmStart(vars, dataDir)).toEqual({ code: 1, stdout: "", stderr: `skillgate: cannot start: ${message}\n` });
      expect(existsSync(dataDir)).toBe(false);
    },
  );
});
