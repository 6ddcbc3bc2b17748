import { createHash } from "node:crypto";
import type { Trigger } from "../usage/activations";
import type { AnyValue, Int64, KeyValue, LogsRequest, TracesRequest } from "./otlp-messages";

/**
 * What Skillgate takes from agents' OpenTelemetry (docs/telemetry.md), as plain values: skill
 * activations, prompts, and what happened while a skill may be loaded — tool results, API requests
 * (tokens and cost) and tools a person rejected. Everything else an agent sends (API errors,
 * assistant responses, accepted tool decisions) is counted as ignored and dropped here, before
 * anything is written. Pure: no database, no clock but `now`.
 */

/** Claude Code's `invocation_trigger` values. */
const TRIGGER_OF: Record<string, Trigger> = { "claude-proactive": "proactive", "user-slash": "slash", "nested-skill": "nested" };

interface EventBase {
  /** What makes the event one: its session and sequence, a span's ids, else a hash of what it says. */
  key: string;
  at: Date;
  sessionId: string | null;
  promptId: string | null;
  person: string | null;
  /** Claude Code's `event.sequence`: the order of a session's events, which times to the millisecond cannot always tell. */
  sequence: number | null;
}
export interface Activation extends EventBase {
  kind: "activation";
  skillName: string;
  trigger: Trigger;
  skillSource: string | null;
}
export interface Prompt extends EventBase {
  kind: "prompt";
  /** Only when the agent sent it (Claude Code: `OTEL_LOG_USER_PROMPTS=1`); kept only with the team's `storePrompts`. */
  text: string | null;
}
/** `claude_code.tool_result`: one tool call and whether it worked. */
export interface ToolResult extends EventBase {
  kind: "tool_result";
  toolName: string;
  success: boolean;
  durationMs: number | null;
  /** What the tool said when it failed; stored only with the team's `storePrompts`, like prompts. */
  error: string | null;
}
/** `claude_code.api_request`: one model call, with what it cost and the skill loaded while it was made. */
export interface ApiRequest extends EventBase {
  kind: "api_request";
  /** `skill.name`: Claude Code names the loaded skill on the calls made while it is. */
  skillName: string | null;
  costUsd: number;
  /** Input, output, cache-read and cache-creation tokens together. */
  tokens: number;
  durationMs: number | null;
}
/** `claude_code.tool_decision` with `decision` reject by a person (not by a configured rule). */
export interface ToolRejection extends EventBase {
  kind: "tool_rejection";
  toolName: string;
}
export type TelemetryEvent = Activation | Prompt | ToolResult | ApiRequest | ToolRejection;

export interface Mapped {
  events: TelemetryEvent[];
  /** Records of events Skillgate does not use. */
  ignored: number;
  /** Records of a used event that cannot be used (no skill name, an unknown trigger), with why. */
  refused: { count: number; reasons: string[] };
}

type Attributes = Map<string, string | number | boolean>;

/** Claude Code's events, by the name in the record's event name, its body, or its `event.name` attribute. */
export function eventsOfLogs(request: LogsRequest, now: Date): Mapped {
  const mapped = emptyMapped();
  for (const resourceLogs of request.resourceLogs ?? []) {
    const resource = attributesOf(resourceLogs.resource?.attributes);
    for (const scopeLogs of resourceLogs.scopeLogs ?? []) {
      for (const record of scopeLogs.logRecords ?? []) {
        const attributes = new Map([...resource, ...attributesOf(record.attributes)]);
        const name = eventName(record.eventName, record.body, attributes);
        const at = eventTime(attributes.get("event.timestamp"), [record.timeUnixNano, record.observedTimeUnixNano], now);
        if (name === "skill_activated") addActivation(mapped, attributes, at);
        else if (name === "user_prompt") addPrompt(mapped, attributes, at);
        else if (name === "tool_result") addToolResult(mapped, attributes, at);
        else if (name === "api_request") addApiRequest(mapped, attributes, at);
        else if (name === "tool_decision") addToolDecision(mapped, attributes, at);
        else mapped.ignored++;
      }
    }
  }
  return mapped;
}

/**
 * Spans of any agent that follows the GenAI semantic conventions: one carrying
 * `gen_ai.skill.name` (an `execute_tool` span) is an activation. Such agents do not say who chose
 * the skill; the model calling a tool is the model choosing it, so it counts as proactive.
 * `jsonIds` are the spans' ids as a JSON request sent them (hex), in span order.
 */
export function eventsOfSpans(request: TracesRequest, now: Date, jsonIds?: string[]): Mapped {
  const mapped = emptyMapped();
  let index = 0;
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        const ids = jsonIds?.[index] ?? `${hex(span.traceId)}:${hex(span.spanId)}`;
        index++;
        const attributes = new Map([...resource, ...attributesOf(span.attributes)]);
        const skill = text(attributes.get("gen_ai.skill.name"), 200);
        if (!skill) {
          mapped.ignored++;
          continue;
        }
        mapped.events.push({
          kind: "activation",
          key: ids === ":" ? contentKey("span", attributes, span.startTimeUnixNano) : `span:${ids}`,
          at: eventTime(undefined, [span.startTimeUnixNano], now),
          sessionId: text(attributes.get("session.id") ?? attributes.get("gen_ai.conversation.id"), 200),
          promptId: text(attributes.get("prompt.id"), 200),
          person: personOf(attributes),
          sequence: null,
          skillName: skill,
          trigger: "proactive",
          skillSource: text(attributes.get("gen_ai.agent.name") ?? attributes.get("service.name"), 200),
        });
      }
    }
  }
  return mapped;
}

function emptyMapped(): Mapped {
  return { events: [], ignored: 0, refused: { count: 0, reasons: [] } };
}

function refuse(mapped: Mapped, reason: string): void {
  mapped.refused.count++;
  if (!mapped.refused.reasons.includes(reason)) mapped.refused.reasons.push(reason);
}

function addActivation(mapped: Mapped, attributes: Attributes, at: Date): void {
  const skillName = text(attributes.get("skill.name"), 200);
  if (!skillName) return refuse(mapped, "skill_activated without skill.name");
  const said = text(attributes.get("invocation_trigger"), 100);
  const trigger = said ? TRIGGER_OF[said] : undefined;
  if (!trigger) return refuse(mapped, `skill_activated with an unknown invocation_trigger (${said ?? "none"})`);
  mapped.events.push({
    kind: "activation",
    ...base("activation", attributes, at),
    skillName,
    trigger,
    skillSource: text(attributes.get("skill.source"), 200),
  });
}

function addPrompt(mapped: Mapped, attributes: Attributes, at: Date): void {
  const promptId = text(attributes.get("prompt.id"), 200);
  const said = text(attributes.get("prompt"), 100_000);
  mapped.events.push({
    kind: "prompt",
    ...base("prompt", attributes, at),
    key: sequenceKey(attributes) ?? (promptId ? `prompt:${promptId}` : contentKey("prompt", attributes, at.getTime())),
    // Claude Code sends a placeholder instead of the text unless told to send prompts.
    text: said && said !== "<REDACTED>" ? said : null,
  });
}

function addToolResult(mapped: Mapped, attributes: Attributes, at: Date): void {
  const toolName = text(attributes.get("tool_name"), 200);
  const success = flag(attributes.get("success"));
  if (!toolName || success === null) return refuse(mapped, "tool_result without tool_name or success");
  mapped.events.push({
    kind: "tool_result",
    ...base("tool_result", attributes, at),
    toolName,
    success,
    durationMs: whole(attributes.get("duration_ms")),
    error: success ? null : text(attributes.get("error"), 2000),
  });
}

function addApiRequest(mapped: Mapped, attributes: Attributes, at: Date): void {
  const tokens = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens"].reduce(
    (sum, key) => sum + (whole(attributes.get(key)) ?? 0),
    0,
  );
  mapped.events.push({
    kind: "api_request",
    ...base("api_request", attributes, at),
    skillName: text(attributes.get("skill.name"), 200),
    costUsd: amount(attributes.get("cost_usd")) ?? 0,
    tokens,
    durationMs: whole(attributes.get("duration_ms")),
  });
}

/**
 * Only a person's rejection is kept: an accepted call shows up as its tool result, and a rule in
 * the settings rejecting one says nothing about the skill (`source` is `config` then).
 */
function addToolDecision(mapped: Mapped, attributes: Attributes, at: Date): void {
  const toolName = text(attributes.get("tool_name"), 200);
  const byPerson = String(attributes.get("source") ?? "").startsWith("user");
  if (!toolName || attributes.get("decision") !== "reject" || !byPerson) {
    mapped.ignored++;
    return;
  }
  mapped.events.push({ kind: "tool_rejection", ...base("tool_decision", attributes, at), toolName });
}

/** What every event says of where it belongs: its key, time, session, prompt, person and place in the session. */
function base(kind: string, attributes: Attributes, at: Date): EventBase {
  return {
    key: sequenceKey(attributes) ?? contentKey(kind, attributes, at.getTime()),
    at,
    sessionId: text(attributes.get("session.id"), 200),
    promptId: text(attributes.get("prompt.id"), 200),
    person: personOf(attributes),
    sequence: whole(attributes.get("event.sequence")),
  };
}

/** A whole number an agent sent as a number or as text; null for anything else or out of range. */
function whole(value: string | number | boolean | undefined): number | null {
  const number = quantity(value);
  return number !== null && number <= Number.MAX_SAFE_INTEGER ? Math.round(number) : null;
}

/** A finite number at or above zero, sent as a number or as text; null for anything else. */
function quantity(value: string | number | boolean | undefined): number | null {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : null;
}

/** An amount of money an agent sent as a number or as text; null for anything else. */
function amount(value: string | number | boolean | undefined): number | null {
  const number = quantity(value);
  return number !== null && number < 1e9 ? number : null;
}

/** Claude Code sends `success` as text ("true"/"false"); another exporter may send a boolean. */
function flag(value: string | number | boolean | undefined): boolean | null {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return null;
}

/** Claude Code numbers the events of a session: the same session and sequence is the same event, sent again. */
function sequenceKey(attributes: Attributes): string | null {
  const session = text(attributes.get("session.id"), 200);
  const sequence = attributes.get("event.sequence");
  return session && sequence !== undefined && sequence !== "" ? `seq:${session}:${String(sequence)}` : null;
}

/** Without a sequence, an event is known by everything it says: a re-sent copy says the same. */
function contentKey(kind: string, attributes: Attributes, time: unknown): string {
  const said = JSON.stringify([kind, String(time), [...attributes].sort(([a], [b]) => (a < b ? -1 : 1))]);
  return `hash:${createHash("sha256").update(said).digest("base64url")}`;
}

function personOf(attributes: Attributes): string | null {
  return text(attributes.get("user.email"), 320) ?? text(attributes.get("user.account_uuid"), 200) ?? text(attributes.get("user.id"), 200);
}

/** The events Skillgate uses, by Claude Code's name without its `claude_code.` prefix. */
const USED_EVENTS = ["skill_activated", "user_prompt", "tool_result", "api_request", "tool_decision"] as const;
type UsedEvent = (typeof USED_EVENTS)[number];

/**
 * The used event any of the three places names: a record whose body is a message of its own
 * (another SDK's, or a later Claude Code's) while its `event.name` says `skill_activated` is
 * still one. Null for every other event.
 */
function eventName(recordName: string | null | undefined, body: AnyValue | null | undefined, attributes: Attributes): UsedEvent | null {
  for (const named of [recordName, body?.stringValue, attributes.get("event.name")]) {
    if (typeof named !== "string") continue;
    const name = named.startsWith("claude_code.") ? named.slice("claude_code.".length) : named;
    const used = USED_EVENTS.find((event) => event === name);
    if (used) return used;
  }
  return null;
}

/**
 * `event.timestamp` (ISO 8601) when the agent gave one, else the first of the record's times
 * that is set (OTLP: 0 is unknown), else now. A time before 1970 or more than a day ahead counts
 * as none: stored, it would put the activation on a day no chart shows (or in a year the dashboard
 * cannot read back).
 */
function eventTime(stamp: unknown, unixNanos: (Int64 | null | undefined)[], now: Date): Date {
  const candidates = [typeof stamp === "string" ? new Date(stamp) : null, ...unixNanos.map(fromUnixNano)];
  return candidates.find((at): at is Date => at !== null && plausible(at, now)) ?? now;
}

/** Nanoseconds to a time, exact to the millisecond: nanoseconds since 1970 are past a double's precision. */
function fromUnixNano(unixNano: Int64 | null | undefined): Date | null {
  if (unixNano === null || unixNano === undefined) return null;
  try {
    return new Date(Number(BigInt(String(unixNano)) / 1_000_000n));
  } catch {
    return null;
  }
}

/** A day of clock skew is tolerated; a time further ahead would count today's use on a day to come. */
const FUTURE_SKEW_MS = 86_400_000;

function plausible(at: Date, now: Date): boolean {
  return at.getTime() > 0 && at.getTime() <= now.getTime() + FUTURE_SKEW_MS;
}

function attributesOf(list: KeyValue[] | null | undefined): Attributes {
  const attributes: Attributes = new Map();
  for (const { key, value } of list ?? []) {
    if (!key || !value) continue;
    const plain = plainValue(value);
    if (plain !== undefined) attributes.set(key, plain);
  }
  return attributes;
}

function plainValue(value: AnyValue): string | number | boolean | undefined {
  if (value.stringValue !== undefined && value.stringValue !== null) return value.stringValue;
  if (value.intValue !== undefined && value.intValue !== null) return Number(String(value.intValue));
  if (value.doubleValue !== undefined && value.doubleValue !== null) return value.doubleValue;
  if (value.boolValue !== undefined && value.boolValue !== null) return value.boolValue;
  return undefined;
}

/** Text PostgreSQL can store and a page can show: no NUL, no lone surrogate, bounded. Null for nothing. */
function text(value: string | number | boolean | undefined, max: number): string | null {
  if (value === undefined || value === "") return null;
  const clean = String(value)
    .replace(/\u0000/g, "")
    .toWellFormed();
  return clean === "" ? null : clean.slice(0, max);
}

function hex(bytes: Uint8Array | null | undefined): string {
  return bytes ? Buffer.from(bytes).toString("hex") : "";
}
