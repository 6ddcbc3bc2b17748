// `npx tsx scripts/capture-claude-code-events.ts`: runs the real Claude Code CLI (the pinned
// devDependency) against the fake model and a small OTLP/JSON receiver, and writes what it sent
// to tests/fixtures/claude-code-events.json, with ids, hashes, paths and times made stable. Run it
// again after moving to another Claude Code version; the diff is what changed in its telemetry.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { claudeCodeBinary, readmeSettingsEnv, runClaudeCode } from "../tests/helpers/claude-code";
import { startFakeAnthropic, type ScriptedTurn } from "../tests/helpers/fake-anthropic";

const FIXTURE = "tests/fixtures/claude-code-events.json";
const SKILL = {
  name: "deploy-notes",
  description: "Writes deploy notes. Use when shipping.",
  body: "# Deploy notes\nRun the checks first.\n",
};

interface Session {
  name: string;
  what: string;
  turn: ScriptedTurn;
  extraEnv?: Record<string, string>;
}

const SESSIONS: Session[] = [
  {
    name: "skill-then-failing-tool",
    what: "The end-to-end test's session: the model loads the skill, runs `exit 3` in Bash (fails), then answers.",
    turn: { skill: SKILL.name, failing: { tool: "Bash", input: { command: "exit 3", description: "Check the deploy" } }, answer: "Done." },
  },
  {
    name: "skill-then-rejected-tool",
    what: "The model loads the skill, then calls Write, which the allowed tools leave out: rejected by config, no tool_result.",
    turn: { skill: SKILL.name, failing: { tool: "Write", input: { file_path: "notes.md", content: "notes\n" } }, answer: "Done." },
  },
  {
    name: "api-error",
    what: "The model's first answer is a 500 and CLAUDE_CODE_MAX_RETRIES=0: api_error, and the prompt ends there (exit 1).",
    turn: {
      skill: SKILL.name,
      failing: { tool: "Bash", input: { command: "exit 3" } },
      answer: "Done.",
      errorFirst: { status: 500, type: "api_error", message: "Internal server error" },
    },
    extraEnv: { CLAUDE_CODE_MAX_RETRIES: "0" },
  },
];

type Body = { resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[] };

async function capture(binary: string, session: Session) {
  const bodies: Body[] = [];
  const receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.url === "/api/otlp/v1/logs") bodies.push(JSON.parse(raw) as Body);
      res.writeHead(req.url === "/api/otlp/v1/logs" ? 200 : 404, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const model = await startFakeAnthropic(session.turn);
  try {
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/otlp`;
    const run = await runClaudeCode({
      binary,
      modelUrl: model.baseUrl,
      // JSON rather than the README's protobuf, so the fixture reads as sent; the records are the same.
      settingsEnv: { ...readmeSettingsEnv(endpoint, "sg_capture"), OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      skills: [SKILL],
      prompt: "Write the deploy notes for today's release",
      sessionId: randomUUID(),
      allowedTools: ["Bash", "Skill"],
      extraEnv: session.extraEnv,
    });
    return { exit: run.code, modelCalls: model.requests.map((request) => request.answered), otlp: stable(bodies, run.project) };
  } finally {
    await model.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/** The attributes whose values differ from run to run or machine to machine, and their placeholders' names. */
const IDS: Record<string, string> = {
  "session.id": "session",
  "prompt.id": "prompt",
  "user.id": "user.id hash",
  "message.uuid": "message",
  plugin_id_hash: "plugin hash",
  "os.version": "os.version",
};

/** Placeholders are numbered across the sessions, so two sessions never share one. */
const seen = new Map<string, string>();
const counts = new Map<string, number>();

/** Each distinct id, hash, machine detail and path becomes `<kind n>`; times start at a fixed instant. */
function stable(bodies: Body[], project: string): Body[] {
  const placeholder = (kind: string, value: string) => {
    const known = seen.get(value);
    if (known) return known;
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    seen.set(value, `<${kind} ${n}>`);
    return `<${kind} ${n}>`;
  };
  const records = bodies.flatMap((body) => body.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords)));
  const start = BigInt(String(records[0]?.timeUnixNano ?? "0"));
  const BASE = 1_767_258_000_000n; // 2026-01-01T09:00:00Z, in ms
  const shifted = (nanos: bigint) => BASE * 1_000_000n + (nanos - start);
  return JSON.parse(JSON.stringify(bodies), (key, value: unknown) => {
    if ((key === "timeUnixNano" || key === "observedTimeUnixNano") && typeof value === "string") return String(shifted(BigInt(value)));
    if (value && typeof value === "object" && "key" in value && "value" in value) {
      const { key: name, value: any } = value as { key: string; value: { stringValue?: string } };
      if (typeof any.stringValue !== "string") return value;
      const kind = IDS[name];
      if (kind) return { key: name, value: { stringValue: placeholder(kind, any.stringValue) } };
      if (name === "event.timestamp") {
        const nanos = BigInt(Date.parse(any.stringValue)) * 1_000_000n;
        return { key: name, value: { stringValue: new Date(Number(shifted(nanos) / 1_000_000n)).toISOString() } };
      }
      return { key: name, value: { stringValue: any.stringValue.replaceAll(project, "<project>") } };
    }
    return value;
  }) as Body[];
}

const { path: binary, version } = claudeCodeBinary();
const sessions = [];
for (const session of SESSIONS) sessions.push({ name: session.name, what: session.what, ...(await capture(binary, session)) });
const fixture = {
  about:
    "What the real Claude Code CLI sends over OTLP (logs, http/json) for one headless prompt each, configured by the README's " +
    "settings, against tests/helpers/fake-anthropic.ts. Written by scripts/capture-claude-code-events.ts: ids, hashes, paths " +
    "and the OS version are placeholders; times start at 2026-01-01T09:00:00Z per session, with the gaps as they were.",
  claudeCode: version,
  sessions,
};
writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`wrote ${FIXTURE}: ${sessions.map((s) => `${s.name} (exit ${s.exit}, ${s.modelCalls.join(" → ")})`).join("; ")}`);
