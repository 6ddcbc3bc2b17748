#!/usr/bin/env node
// Claude Code PostToolUse hook for its `Skill` tool: reports each skill load to Skillgate
// (POST /api/v1/usage/views) with the Claude Code session id, so usage counts real sessions.
// Reads SKILLGATE_URL and SKILLGATE_API_KEY. It never blocks the agent: any failure is logged
// to stderr and the hook still exits 0.

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

export async function report(payload, { url, key, fetchImpl = fetch }) {
  if (payload?.tool_name !== "Skill") return { skipped: "not a Skill tool call" };
  const skill = skillOf(payload);
  if (!skill) return { skipped: "no skill name in tool_input" };
  const res = await fetchImpl(`${url.replace(/\/$/, "")}/api/v1/usage/views`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ skill, sessionId: String(payload.session_id ?? "unknown") }),
  });
  return { status: res.status, skill };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.SKILLGATE_URL;
  const key = process.env.SKILLGATE_API_KEY;
  try {
    if (!url || !key) throw new Error("set SKILLGATE_URL and SKILLGATE_API_KEY");
    const result = await report(JSON.parse(await readStdin()), { url, key });
    if (result.status && result.status >= 300) console.error(`skillgate hook: ${result.skill}: HTTP ${result.status}`);
  } catch (error) {
    console.error(`skillgate hook: ${error.message}`);
  }
  process.exit(0);
}
