#!/usr/bin/env node
// Claude Code PostToolUse hook for its `Skill` tool: reports each skill load to Skillgate
// (POST /api/v1/usage/views) with the Claude Code session id, so usage counts real sessions.
// Reads SKILLGATE_URL and SKILLGATE_API_KEY (a key with the `write` scope). It never blocks the
// agent: it is gone within 2 s of its process starting, says on stderr why it recorded nothing,
// and always exits 0.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The most the hook may add to a Skill call of the agent, node's own start-up included. */
export const DEADLINE_MS = 2000;
/**
 * The deadline is counted on `performance.now()`, whose zero is this process's start; what that
 * clock does not see (the exec before it starts, the last write and the exit) gets this much.
 * Node takes ~0.1 s to reach this file on a two-core machine, more when it is busy (issue 28).
 */
const EXIT_ALLOWANCE_MS = 150;

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The skill a Skill tool call loaded; Claude Code has named the input field `skill` and `command`. */
export function skillOf(payload) {
  const input = payload?.tool_input ?? {};
  const raw = input.skill ?? input.command ?? input.name;
  if (typeof raw !== "string") return null;
  // "plugin:skill-name" → "skill-name"; a leading slash as typed in a prompt is not part of the name.
  const name = raw.trim().replace(/^\//, "").split(":").pop();
  return name || null;
}

/** Posts the load; resolves with what happened, a sentence for stderr when nothing was recorded. */
export async function report(payload, { url, key, fetchImpl = fetch }) {
  if (payload?.tool_name !== "Skill") return { skipped: "not a Skill tool call" };
  const skill = skillOf(payload);
  if (!skill) return { skipped: "no skill name in tool_input" };
  const res = await fetchImpl(`${url.replace(/\/$/, "")}/api/v1/usage/views`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ skill, sessionId: String(payload.session_id ?? "unknown") }),
  });
  if (res.status < 300) return { status: res.status, skill };
  // The API's message says what to fix (a revoked key, a missing scope, an unknown skill).
  const message = await res
    .json()
    .then((body) => body?.error?.message)
    .catch(() => undefined);
  return { status: res.status, skill, skipped: `${skill}: HTTP ${res.status}${message ? ` ${message}` : ""}` };
}

/**
 * Whether this file is what node was asked to run. Compared as real paths, so a path with spaces,
 * a symlinked checkout or a Windows drive letter all match (a `file://` string compare does not).
 */
function isMainModule() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

async function main() {
  const say = (why) => console.error(`skillgate hook: recorded nothing: ${why}`);
  const url = process.env.SKILLGATE_URL;
  const key = process.env.SKILLGATE_API_KEY;
  // What the hook waits for when the deadline comes: a harness that never closes standard input is
  // told so, not sent to look at the server.
  let waitingFor = "stdin";
  // Whatever hangs (stdin, DNS, a server that accepts and never answers), the agent waits no longer.
  const timer = setTimeout(
    () => {
      say(
        waitingFor === "stdin"
          ? `standard input did not close within ${DEADLINE_MS / 1000} s (the hook reads its payload to the end)`
          : `no answer within ${DEADLINE_MS / 1000} s from ${url}`,
      );
      process.exit(0);
    },
    Math.max(0, DEADLINE_MS - EXIT_ALLOWANCE_MS - performance.now()),
  );
  try {
    if (!url || !key) throw new Error("set SKILLGATE_URL and SKILLGATE_API_KEY (a key with the write scope)");
    const payload = JSON.parse(await readStdin());
    waitingFor = "server";
    const result = await report(payload, { url, key });
    if (result.skipped) say(result.skipped);
  } catch (error) {
    say(error.message);
  }
  clearTimeout(timer);
  process.exit(0);
}

if (isMainModule()) await main();
