// The bench's telemetry: OTLP bodies as the OpenTelemetry exporters write them, and a history of
// activations written by the receiver's own ingest.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Database } from "../../db/client";
import type { Activation, Mapped } from "../../lib/telemetry/events";
import { ingestTelemetry } from "../../lib/telemetry/ingest";
import { ensureTelemetryPartitions, TelemetryPartitions } from "../../lib/telemetry/partitions";
import { daysBefore } from "../../lib/usage/rollups";
import type { TeamId } from "../../lib/teams/teams";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender } from "../../tests/helpers/telemetry";
import { promptEvents } from "./claude-code-mix";

/** Stands where a session id goes in a captured body; every request gets its own, of the same length. */
const PLACEHOLDER = "@@@@@@@@@@@@";
let sent = 0;

/** A request body the exporter wrote, made new for each request: same records, sessions no request used before. */
export interface OtlpBody {
  records: number;
  next: () => Buffer;
}

/**
 * The body Claude Code's exporter would send for what `emit` logs: the OpenTelemetry SDK's own
 * protobuf log exporter, pointed at a server that keeps what it is sent. Each `next()` writes a
 * fresh counter over the placeholder in every session id, so the receiver stores every record
 * (a body sent twice would be the exporters' retry, which inserts nothing).
 */
async function capturedBody(records: number, emit: (logs: LogSender, session: (n: number) => ClaudeCodeSession) => void) {
  const bodies: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const logs = claudeCodeLogs({ endpoint: `http://127.0.0.1:${port}`, key: "capture", protocol: "http/protobuf" });
  const person = (n: number) => ({ email: `dev-${n}@example.com`, accountUuid: `0c2b8f3e-0000-4000-8000-${String(n).padStart(12, "0")}` });
  emit(logs, (n) => ({ sessionId: `${PLACEHOLDER}-${String(n).padStart(2, "0")}`, person: person(n), sequence: 0 }));
  await logs.flush();
  await logs.close();
  await new Promise((resolve) => server.close(resolve));
  const [template] = bodies;
  if (bodies.length !== 1 || !template) throw new Error(`the exporter sent ${bodies.length} requests for one batch; expected 1`);
  const at = offsetsOf(template, Buffer.from(PLACEHOLDER));
  return {
    records,
    next: () => {
      const body = Buffer.from(template);
      const id = Buffer.from(String(++sent).padStart(PLACEHOLDER.length, "0"));
      for (const offset of at) id.copy(body, offset);
      return body;
    },
  };
}

function offsetsOf(body: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + needle.length)) found.push(at);
  if (found.length === 0) throw new Error("the captured body holds no session id to vary");
  return found;
}

const skill = (i: number) => `skill-${String(i % 100).padStart(5, "0")}`;
const trigger = (i: number) => (i % 4 === 3 ? "user-slash" : "claude-proactive");

/**
 * A full batch as the exporters send it (512 records, their default): 16 sessions of 8 prompts,
 * each prompt followed by three skill activations — every record one the receiver stores, with
 * its rollups (the heaviest batch there is; the events it ignores cost less).
 */
export function fullBatch(): Promise<OtlpBody> {
  return capturedBody(512, (logs, session) => {
    for (let s = 0; s < 16; s++) {
      const one = session(s);
      for (let p = 0; p < 8; p++) {
        const promptId = `${s}-${p}`;
        logs.userPrompt(one, { promptId });
        for (let a = 0; a < 3; a++) logs.skillActivated(one, { skill: skill(s * 24 + p * 3 + a), trigger: trigger(a), promptId });
      }
    }
  });
}

/**
 * What one developer's Claude Code sends every 5 s (its logs export interval) while working: a
 * prompt, a skill it activated, and the model and tool calls around them, which Skillgate ignores.
 */
export function developerBatch(): Promise<OtlpBody> {
  return capturedBody(8, (logs, session) => {
    const one = session(0);
    logs.userPrompt(one, { promptId: "p-1" });
    logs.skillActivated(one, { skill: skill(7), trigger: "claude-proactive", promptId: "p-1" });
    for (let call = 0; call < 2; call++) {
      logs.other(one, "api_request", {
        model: "claude-sonnet-4-5",
        cost_usd: 0.0123,
        duration_ms: 4210,
        input_tokens: 18_230,
        output_tokens: 412,
        cache_read_tokens: 16_000,
        cache_creation_tokens: 0,
        "prompt.id": "p-1",
      });
      logs.other(one, "tool_decision", { tool_name: "Bash", decision: "accept", source: "config", "prompt.id": "p-1" });
      logs.other(one, "tool_result", { tool_name: "Bash", success: "true", duration_ms: 830, "prompt.id": "p-1" });
    }
  });
}

/** The skill prompt `n` of the mixed row's sessions loads: one of the first 100 of the 10,000-skill catalog. */
export const mixSkill = (n: number) => skill(n * 37);

/**
 * Four prompts of the mixed row's Claude Code session (scripts/bench/claude-code-mix.ts) as its
 * exporter sends them in one request: two skill activations, four prompts, and every other event
 * type around them.
 */
export function mixedBatch(): Promise<OtlpBody> {
  const events = [0, 1, 2, 3].flatMap((n) => promptEvents(n, mixSkill));
  return capturedBody(events.length, (logs, session) => {
    const one = session(0);
    for (const event of events) logs.other(one, event.name, event.attributes);
  });
}

/**
 * `count` activations as Claude Code reports them, written by the receiver's own ingest in large
 * batches: sessions of 20 loads of five related skills (20 families of 5, as the views of the
 * bench), spread evenly over the 30 days usage counts (and raw events are kept by default: ingest
 * stores nothing older), mostly chosen by the model; one in a hundred names hidden
 * (`custom_skill`) and one outside the catalog. The sessions belong to 1,000 developers, each
 * working in three families of skills: a million activations in 30 days is about 33 a developer a
 * day, as a team of that size makes them. Prompts only add to one row a day, so none are written.
 */
export async function activationHistory(db: Database["db"], teamId: TeamId, count: number, now = new Date()): Promise<void> {
  // The days' partitions first, as the receiver and the background tick make them: rows of a day with none would wait in the default partition.
  await ensureTelemetryPartitions(
    db,
    Array.from({ length: 31 }, (_, n) => daysBefore(now, n)),
    new TelemetryPartitions(),
  );
  const batch = 50_000;
  let added = 0;
  for (let from = 0; from < count; from += batch) {
    const events: Activation[] = [];
    for (let g = from; g < Math.min(from + batch, count); g++) events.push(historyEvent(g, now));
    const mapped: Mapped = { events, ignored: 0, refused: { count: 0, reasons: [] } };
    // The bench's skills are synced ones: no built-in among them.
    added += (await ingestTelemetry(db, teamId, mapped, new Set(), now)).added;
  }
  if (added !== count) throw new Error(`ingest stored ${added} of ${count} activations; the rows would not measure what they say`);
}

const DAY = 86_400_000;
const DEVELOPERS = 1_000;

/** A well-spread hash of a number (murmur3's finalizer): developers and families that do not follow the days. */
function spread(n: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function historyEvent(g: number, now: Date): Activation {
  const session = Math.floor(g / 20);
  const sequence = (g % 20) + 1;
  const sessionId = `history-${session}`;
  const developer = spread(session) % DEVELOPERS;
  const family = (spread(developer + 1_000_000) + (spread(session + 2_000_000) % 3) * 7) % 20;
  const name = g % 100 === 98 ? "team-script" : g % 100 === 99 ? "custom_skill" : skill(family * 5 + (g % 5));
  return {
    kind: "activation",
    // What lib/telemetry/events.ts makes of a record with a session and an event sequence.
    key: `seq:${sessionId}:${sequence}`,
    at: new Date(now.getTime() - (session % 30) * DAY - (g % 20) * 60_000),
    sessionId,
    promptId: `${sessionId}-${Math.floor((g % 20) / 4)}`,
    person: `dev-${developer}@example.com`,
    sequence,
    skillName: name,
    trigger: g % 20 < 14 ? "proactive" : g % 20 < 19 ? "slash" : "nested",
    skillSource: "projectSettings",
  };
}
