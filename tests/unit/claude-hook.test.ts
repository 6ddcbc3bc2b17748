import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error — a plain .mjs script shipped for Claude Code, without types
import { report, skillOf } from "../../hooks/claude-code/report-skill-load.mjs";

describe("the Claude Code hook", () => {
  it("reads the skill name from the Skill tool's input, whatever Claude Code calls the field", () => {
    expect(skillOf({ tool_input: { skill: "review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: { command: "/review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: { skill: "my-plugin:review-guide" } })).toBe("review-guide");
    expect(skillOf({ tool_input: {} })).toBeNull();
  });

  it("posts one view with the session id, and ignores other tools", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchImpl = async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(null, { status: 201 });
    };
    expect(await report({ tool_name: "Bash", tool_input: { command: "ls" } }, { url: "http://x", key: "k", fetchImpl })).toEqual({
      skipped: "not a Skill tool call",
    });
    expect(
      await report({ tool_name: "Skill", session_id: "s-1", tool_input: { skill: "tdd" } }, { url: "http://x/", key: "k", fetchImpl }),
    ).toEqual({ status: 201, skill: "tdd" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("http://x/api/v1/usage/views");
    expect(calls[0]!.init.body).toBe('{"skill":"tdd","sessionId":"s-1"}');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer k");
  });
});

/**
 * Runs the hook as Claude Code does: node <path>, the payload on stdin, which is then closed (or,
 * as a harness with a bug would, left open).
 */
function runHook(
  script: string,
  env: Record<string, string>,
  payload: unknown,
  { closeStdin = true } = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    // This run's environment, with SKILLGATE_* only as each test sets it.
    const child = spawn(process.execPath, [script], { env: { ...process.env, SKILLGATE_URL: "", SKILLGATE_API_KEY: "", ...env } });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // A hook that never exits is killed, and the test sees no exit code.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    if (closeStdin) child.stdin.end(JSON.stringify(payload));
    else child.stdin.write(JSON.stringify(payload));
  });
}

/** A stand-in Skillgate that records each request, or never answers at all. */
async function stubServer(answer: boolean): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      bodies.push(body);
      if (answer) res.writeHead(201, { "content-type": "application/json" }).end('{"recorded":1}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise((resolve) => server.closeAllConnections() ?? server.close(() => resolve())),
  };
}

// Each test spawns node (three times in the first): on a loaded two-core machine that takes far
// longer than vitest's default 5 s.
describe("the Claude Code hook as a process", { timeout: 30_000 }, () => {
  const hook = path.resolve("hooks/claude-code/report-skill-load.mjs");
  const payload = { tool_name: "Skill", session_id: "s-9", tool_input: { skill: "tdd" } };

  it("reports from a path with spaces and through a symlink, as from its own path", async () => {
    const server = await stubServer(true);
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate hook "));
    const spaced = path.join(dir, "my hooks", "report skill load.mjs");
    mkdirSync(path.dirname(spaced));
    copyFileSync(hook, spaced);
    const linked = path.join(dir, "linked.mjs");
    symlinkSync(hook, linked);
    try {
      for (const script of [hook, spaced, linked]) {
        expect(await runHook(script, { SKILLGATE_URL: server.url, SKILLGATE_API_KEY: "k" }, payload), script).toEqual({
          code: 0,
          stderr: "",
        });
      }
      expect(server.bodies).toEqual(Array(3).fill('{"skill":"tdd","sessionId":"s-9"}'));
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives up on a server that never answers within its deadline, and says so", async () => {
    const server = await stubServer(false);
    try {
      const result = await runHook(hook, { SKILLGATE_URL: server.url, SKILLGATE_API_KEY: "k" }, payload);
      expect(result).toEqual({ code: 0, stderr: `skillgate hook: recorded nothing: no answer within 2 s from ${server.url}\n` });
      expect(server.bodies).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("gives up on standard input that never closes within its deadline, and says so rather than blame the server", async () => {
    const server = await stubServer(true);
    try {
      const result = await runHook(hook, { SKILLGATE_URL: server.url, SKILLGATE_API_KEY: "k" }, payload, { closeStdin: false });
      expect(result).toEqual({
        code: 0,
        stderr: "skillgate hook: recorded nothing: standard input did not close within 2 s (the hook reads its payload to the end)\n",
      });
      expect(server.bodies).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("says why it recorded nothing when it is not set up", async () => {
    expect(await runHook(hook, {}, payload)).toEqual({
      code: 0,
      stderr: "skillgate hook: recorded nothing: set SKILLGATE_URL and SKILLGATE_API_KEY (a key with the write scope)\n",
    });
  });
});
