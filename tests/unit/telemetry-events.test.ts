import { describe, expect, it } from "vitest";
import { eventsOfLogs, eventsOfSpans, type Activation, type Mapped, type Prompt } from "@/lib/telemetry/events";
import type { AnyValue, Int64, KeyValue, LogRecord, LogsRequest, Span, TracesRequest } from "@/lib/telemetry/otlp-messages";

/**
 * The mapping of docs/telemetry.md#the-receiver on decoded OTLP messages written by hand: which records are Claude Code's
 * skill activations and prompts, what each becomes, and the key that makes a re-sent one the same.
 */

const NOW = new Date("2026-03-10T12:00:00.000Z");
const AT = "2026-03-09T08:30:15.250Z";
/** AT in nanoseconds since the epoch, as OTLP says times. */
const AT_NANOS = "1773045015250000000";

type Plain = string | number | boolean;

function value(plain: Plain): AnyValue {
  if (typeof plain === "string") return { stringValue: plain };
  if (typeof plain === "boolean") return { boolValue: plain };
  return Number.isInteger(plain) ? { intValue: plain } : { doubleValue: plain };
}

function attributes(values: Record<string, Plain>): KeyValue[] {
  return Object.entries(values).map(([key, plain]) => ({ key, value: value(plain) }));
}

/** Claude Code's standard attributes of an event (its documentation, "Monitoring"). */
const STANDARD = {
  "session.id": "session-1",
  "user.email": "ana@example.com",
  "user.account_uuid": "0d1c2b3a-0000-4000-8000-00000000000a",
  "organization.id": "9f0c3a52-0000-4000-8000-000000000001",
  "terminal.type": "vscode",
  "event.timestamp": AT,
};

function activated(extra: Record<string, Plain> = {}, record: Partial<LogRecord> = {}): LogRecord {
  return {
    body: { stringValue: "claude_code.skill_activated" },
    timeUnixNano: AT_NANOS,
    attributes: attributes({
      ...STANDARD,
      "event.name": "skill_activated",
      "event.sequence": 7,
      "skill.name": "writing-plans",
      "skill.source": "projectSettings",
      invocation_trigger: "claude-proactive",
      "prompt.id": "prompt-1",
      ...extra,
    }),
    ...record,
  };
}

function prompted(extra: Record<string, Plain> = {}, record: Partial<LogRecord> = {}): LogRecord {
  return {
    body: { stringValue: "claude_code.user_prompt" },
    timeUnixNano: AT_NANOS,
    attributes: attributes({
      ...STANDARD,
      "event.name": "user_prompt",
      "event.sequence": 3,
      "prompt.id": "prompt-1",
      prompt_length: 12,
      ...extra,
    }),
    ...record,
  };
}

function logs(records: LogRecord[], resource: Record<string, Plain> = { "service.name": "claude-code" }): LogsRequest {
  return { resourceLogs: [{ resource: { attributes: attributes(resource) }, scopeLogs: [{ logRecords: records }] }] };
}

const map = (records: LogRecord[], resource?: Record<string, Plain>): Mapped => eventsOfLogs(logs(records, resource), NOW);
const only = (records: LogRecord[], resource?: Record<string, Plain>) => {
  const mapped = map(records, resource);
  expect(mapped.events.length).toBe(1);
  return mapped.events[0]!;
};
const activation = (record: LogRecord, resource?: Record<string, Plain>) => only([record], resource) as Activation;
const prompt = (record: LogRecord) => only([record]) as Prompt;

describe("Claude Code's log events (docs/telemetry.md)", () => {
  it("maps skill_activated to an activation with everything it says", () => {
    expect(map([activated()])).toEqual({
      events: [
        {
          kind: "activation",
          key: "seq:session-1:7",
          at: new Date(AT),
          sessionId: "session-1",
          promptId: "prompt-1",
          person: "ana@example.com",
          sequence: 7,
          skillName: "writing-plans",
          trigger: "proactive",
          skillSource: "projectSettings",
        },
      ],
      ignored: 0,
      refused: { count: 0, reasons: [] },
    });
  });

  it("maps user_prompt to a prompt, with no text unless the agent sent one", () => {
    expect(map([prompted()])).toEqual({
      events: [
        {
          kind: "prompt",
          key: "seq:session-1:3",
          at: new Date(AT),
          sessionId: "session-1",
          promptId: "prompt-1",
          person: "ana@example.com",
          sequence: 3,
          text: null,
        },
      ],
      ignored: 0,
      refused: { count: 0, reasons: [] },
    });
    expect(prompt(prompted({ prompt: "why does the login test flake?" })).text).toBe("why does the login test flake?");
  });

  it("maps tool_result, api_request and a person's tool rejection with what each says; a configured rejection or an acceptance is ignored", () => {
    const record = (name: string, extra: Record<string, Plain>): LogRecord => ({
      body: { stringValue: `claude_code.${name}` },
      attributes: attributes({ ...STANDARD, "event.name": name, "prompt.id": "prompt-1", ...extra }),
    });
    const mapped = map([
      record("tool_result", { "event.sequence": 9, tool_name: "Bash", success: "false", duration_ms: "812", error: "Exit code 3" }),
      record("tool_result", { "event.sequence": 10, tool_name: "Read", success: true, duration_ms: 4, error: "ignored when it worked" }),
      record("api_request", {
        "event.sequence": 11,
        model: "claude-sonnet-4-5",
        cost_usd: "0.0123",
        duration_ms: 1840,
        input_tokens: 1200,
        output_tokens: 310,
        cache_read_tokens: "50",
        cache_creation_tokens: 40,
        "skill.name": "writing-plans",
      }),
      record("tool_decision", { "event.sequence": 12, tool_name: "Edit", decision: "reject", source: "user_reject" }),
      record("tool_decision", { "event.sequence": 13, tool_name: "Edit", decision: "reject", source: "config" }),
      record("tool_decision", { "event.sequence": 14, tool_name: "Edit", decision: "accept", source: "user_temporary" }),
      record("tool_result", { "event.sequence": 15, tool_name: "Bash" }),
    ]);
    const base = { at: new Date(AT), sessionId: "session-1", promptId: "prompt-1", person: "ana@example.com" };
    expect(mapped).toEqual({
      events: [
        {
          kind: "tool_result",
          key: "seq:session-1:9",
          ...base,
          sequence: 9,
          toolName: "Bash",
          success: false,
          durationMs: 812,
          error: "Exit code 3",
        },
        {
          kind: "tool_result",
          key: "seq:session-1:10",
          ...base,
          sequence: 10,
          toolName: "Read",
          success: true,
          durationMs: 4,
          error: null,
        },
        {
          kind: "api_request",
          key: "seq:session-1:11",
          ...base,
          sequence: 11,
          skillName: "writing-plans",
          costUsd: 0.0123,
          tokens: 1600,
          durationMs: 1840,
        },
        { kind: "tool_rejection", key: "seq:session-1:12", ...base, sequence: 12, toolName: "Edit" },
      ],
      ignored: 2,
      refused: { count: 1, reasons: ["tool_result without tool_name or success"] },
    });
  });

  it("treats Claude Code's <REDACTED> placeholder as no text", () => {
    expect(prompt(prompted({ prompt: "<REDACTED>" })).text).toBeNull();
    // Only the placeholder itself: a prompt that mentions it is a prompt.
    expect(prompt(prompted({ prompt: "replace <REDACTED> in the log" })).text).toBe("replace <REDACTED> in the log");
  });

  describe("recognises the event", () => {
    const bare = (record: Partial<LogRecord>, name: Record<string, Plain> = {}): LogRecord => {
      const record_ = activated(name, record);
      // Without the event.name attribute unless given.
      record_.attributes = record_.attributes!.filter((kv) => kv.key !== "event.name" || "event.name" in name);
      return record_;
    };

    it("by the record's event name", () => {
      expect(activation(bare({ body: null, eventName: "claude_code.skill_activated" })).skillName).toBe("writing-plans");
      expect(activation(bare({ body: null, eventName: "skill_activated" })).skillName).toBe("writing-plans");
    });

    it("by its body", () => {
      expect(activation(bare({ body: { stringValue: "claude_code.skill_activated" } })).skillName).toBe("writing-plans");
    });

    it("by its event.name attribute", () => {
      expect(activation(bare({ body: null }, { "event.name": "skill_activated" })).skillName).toBe("writing-plans");
      expect(activation(bare({ body: null }, { "event.name": "claude_code.skill_activated" })).skillName).toBe("writing-plans");
    });

    it("by any of the three when another holds something else", () => {
      // A body that is a message of its own, or an SDK's event name of another kind, does not hide what event.name says.
      expect(
        activation(bare({ body: { stringValue: "Skill writing-plans activated" } }, { "event.name": "skill_activated" })).trigger,
      ).toBe("proactive");
      expect(activation(bare({ body: { stringValue: "claude_code.skill_activated" }, eventName: "log" })).trigger).toBe("proactive");
      expect(map([bare({ body: { kvlistValue: { values: [] } } }, { "event.name": "skill_activated" })]).events.length).toBe(1);
    });

    it("and ignores, counting them, every other event and records that name none", () => {
      const other = (name: string) => ({
        body: { stringValue: `claude_code.${name}` },
        attributes: attributes({ ...STANDARD, "event.name": name }),
      });
      const mapped = map([
        other("assistant_response"),
        { ...other("tool_decision"), attributes: attributes({ ...STANDARD, tool_name: "Bash", decision: "accept", source: "config" }) },
        other("tool_decision"),
        other("api_error"),
        activated(),
        { body: { stringValue: "plain text from another logger" } },
        { attributes: attributes({ "skill.name": "writing-plans", invocation_trigger: "claude-proactive" }) },
        // Not Claude Code's prefix: not its event.
        { eventName: "other_agent.skill_activated", attributes: attributes({ "skill.name": "x", invocation_trigger: "claude-proactive" }) },
      ]);
      expect([mapped.events.length, mapped.ignored, mapped.refused]).toEqual([1, 7, { count: 0, reasons: [] }]);
    });
  });

  it("maps each invocation_trigger, and refuses an unknown one or a missing skill.name with why", () => {
    expect(activation(activated({ invocation_trigger: "claude-proactive" })).trigger).toBe("proactive");
    expect(activation(activated({ invocation_trigger: "user-slash" })).trigger).toBe("slash");
    expect(activation(activated({ invocation_trigger: "nested-skill" })).trigger).toBe("nested");

    const withoutName = activated();
    withoutName.attributes = withoutName.attributes!.filter((kv) => kv.key !== "skill.name");
    const withoutTrigger = activated();
    withoutTrigger.attributes = withoutTrigger.attributes!.filter((kv) => kv.key !== "invocation_trigger");
    const mapped = map([
      withoutName,
      activated({ invocation_trigger: "Claude-Proactive" }),
      activated({ invocation_trigger: "model-guess" }),
      withoutTrigger,
      activated({ "skill.name": "" }),
      activated({ "event.sequence": 8 }),
      activated({ invocation_trigger: "model-guess" }),
    ]);
    expect(mapped.events.map((event) => event.key)).toEqual(["seq:session-1:8"]);
    expect(mapped.ignored).toBe(0);
    expect(mapped.refused).toEqual({
      count: 6,
      reasons: [
        "skill_activated without skill.name",
        "skill_activated with an unknown invocation_trigger (Claude-Proactive)",
        "skill_activated with an unknown invocation_trigger (model-guess)",
        "skill_activated with an unknown invocation_trigger (none)",
      ],
    });
  });

  it("takes the person from user.email, else user.account_uuid, else user.id", () => {
    const drop = (record: LogRecord, ...keys: string[]) => ({
      ...record,
      attributes: record.attributes!.filter((kv) => !keys.includes(kv.key!)),
    });
    expect(activation(activated()).person).toBe("ana@example.com");
    expect(activation(drop(activated(), "user.email")).person).toBe("0d1c2b3a-0000-4000-8000-00000000000a");
    expect(activation(drop(activated({ "user.email": "" }), "user.account_uuid")).person).toBeNull();
    expect(activation(drop(activated({ "user.id": "f3e2d1" }), "user.email", "user.account_uuid")).person).toBe("f3e2d1");
    // The resource may carry them; the record's own win.
    const onResource = drop(activated(), "user.email", "user.account_uuid");
    expect(activation(onResource, { "service.name": "claude-code", "user.email": "ben@example.com" }).person).toBe("ben@example.com");
    expect(activation(activated(), { "user.email": "ben@example.com" }).person).toBe("ana@example.com");
  });

  it("takes the time from event.timestamp, else the record's time, else its observed time, else now", () => {
    const noStamp = (record: Partial<LogRecord>, stamp?: string) => {
      const made = activated(stamp === undefined ? {} : { "event.timestamp": stamp }, record);
      if (stamp === undefined) made.attributes = made.attributes!.filter((kv) => kv.key !== "event.timestamp");
      return made;
    };
    const later = "1773048615250000000"; // AT + 1 h
    expect(activation(noStamp({ timeUnixNano: later }, AT)).at).toEqual(new Date(AT));
    expect(activation(noStamp({ timeUnixNano: later })).at).toEqual(new Date("2026-03-09T09:30:15.250Z"));
    expect(activation(noStamp({ timeUnixNano: later }, "not a time")).at).toEqual(new Date("2026-03-09T09:30:15.250Z"));
    // int64 as protobufjs gives it (a Long), as JSON gives it (text or a number).
    const long: Int64 = { toNumber: () => Number(later), toString: () => later };
    expect(activation(noStamp({ timeUnixNano: long })).at).toEqual(new Date("2026-03-09T09:30:15.250Z"));
    expect(activation(noStamp({ timeUnixNano: 1773048615250000000 })).at).toEqual(new Date("2026-03-09T09:30:15.250Z"));
    expect(activation(noStamp({ timeUnixNano: "0", observedTimeUnixNano: AT_NANOS })).at).toEqual(new Date(AT));
    expect(activation(noStamp({ timeUnixNano: null, observedTimeUnixNano: null })).at).toEqual(NOW);
  });

  it("counts a time before 1970 or more than a day ahead as none, and takes the next", () => {
    const stamped = (stamp: string, record: Partial<LogRecord> = {}) => activation(activated({ "event.timestamp": stamp }, record)).at;
    for (const stamp of [
      "-000100-01-01T00:00:00.000Z",
      "+100000-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.000Z",
      "1970-01-01T00:00:00.000Z",
    ]) {
      expect(stamped(stamp), stamp).toEqual(new Date(AT));
    }
    expect(stamped("9999-12-31T23:59:59.999Z")).toEqual(new Date(AT));
    const aheadByADay = new Date(NOW.getTime() + 86_400_000 + 1).toISOString();
    expect(stamped(aheadByADay)).toEqual(new Date(AT));
    const skewed = new Date(NOW.getTime() + 3_600_000);
    expect(stamped(skewed.toISOString())).toEqual(skewed);
    expect(stamped("none", { timeUnixNano: "999999999999999999999999", observedTimeUnixNano: AT_NANOS })).toEqual(new Date(AT));
    expect(stamped("none", { timeUnixNano: "1.5e+21", observedTimeUnixNano: "-5" })).toEqual(NOW);
  });

  describe("keys the same event the same way", () => {
    it("by its session and sequence, whatever else differs", () => {
      expect(activation(activated({ "event.sequence": 12 })).key).toBe("seq:session-1:12");
      expect(activation(activated({ "event.sequence": 12, "skill.name": "other" })).key).toBe("seq:session-1:12");
      expect(activation(activated({ "event.sequence": "12" })).key).toBe("seq:session-1:12");
      expect(activation(activated({ "session.id": "session-2", "event.sequence": 12 })).key).toBe("seq:session-2:12");
      expect(prompt(prompted({ "event.sequence": 12 })).key).toBe("seq:session-1:12");
    });

    it("a prompt without a sequence by its prompt id", () => {
      const unnumbered = prompted();
      unnumbered.attributes = unnumbered.attributes!.filter((kv) => kv.key !== "event.sequence");
      expect(prompt(unnumbered).key).toBe("prompt:prompt-1");
    });

    it("an activation without a session or sequence by what it says", () => {
      const unnumbered = (extra: Record<string, Plain> = {}, time = AT_NANOS) => {
        const record = activated(extra, { timeUnixNano: time });
        record.attributes = record.attributes!.filter((kv) => kv.key !== "event.sequence");
        return record;
      };
      const key = activation(unnumbered()).key;
      expect(key).toMatch(/^hash:[A-Za-z0-9_-]{43}$/);
      // The same event sent again, its attributes in another order: the same key.
      const reordered = unnumbered();
      reordered.attributes = [...reordered.attributes!].reverse();
      expect(activation(reordered).key).toBe(key);
      // Anything it says differently: another event.
      expect(activation(unnumbered({ "skill.name": "scientific-method" })).key).not.toBe(key);
      expect(activation(unnumbered({ "event.timestamp": "2026-03-09T08:30:16.250Z" })).key).not.toBe(key);
      const noSession = activated({ "session.id": "" });
      expect(activation(noSession).key).toMatch(/^hash:/);
    });
  });

  it("strips NUL characters and bounds what it keeps", () => {
    const event = activation(activated({ "skill.name": "writing\u0000-plans", "session.id": "\u0000session-1" }));
    expect([event.skillName, event.sessionId, event.key]).toEqual(["writing-plans", "session-1", "seq:session-1:7"]);
    expect(prompt(prompted({ prompt: "a\u0000b" })).text).toBe("ab");
    // A name of NULs alone is no name.
    expect(map([activated({ "skill.name": "\u0000\u0000" })]).refused).toEqual({
      count: 1,
      reasons: ["skill_activated without skill.name"],
    });
    expect(activation(activated({ "skill.name": "x".repeat(500) })).skillName).toBe("x".repeat(200));
    // A lone surrogate (not storable as text) becomes U+FFFD.
    expect(activation(activated({ "skill.name": "plan\uD800s" })).skillName).toBe("plan\uFFFDs");
  });

  it("reads every record of every resource and scope", () => {
    const request: LogsRequest = {
      resourceLogs: [
        { resource: null, scopeLogs: [{ logRecords: [activated({ "event.sequence": 1 })] }, { logRecords: null }] },
        { scopeLogs: [{ logRecords: [activated({ "event.sequence": 2 }), prompted({ "event.sequence": 3 })] }] },
        { scopeLogs: null },
      ],
    };
    expect(eventsOfLogs(request, NOW).events.map((event) => event.key)).toEqual(["seq:session-1:1", "seq:session-1:2", "seq:session-1:3"]);
    expect(eventsOfLogs({}, NOW)).toEqual({ events: [], ignored: 0, refused: { count: 0, reasons: [] } });
  });
});

describe("GenAI spans (docs/telemetry.md)", () => {
  const TRACE = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
  const SPAN = Uint8Array.from({ length: 8 }, (_, i) => 0xa0 + i);

  function span(values: Record<string, Plain>, ids: Partial<Span> = { traceId: TRACE, spanId: SPAN }): Span {
    return { name: "execute_tool load_skill", startTimeUnixNano: AT_NANOS, attributes: attributes(values), ...ids };
  }
  const traces = (spans: Span[], resource: Record<string, Plain> = { "service.name": "other-agent" }): TracesRequest => ({
    resourceSpans: [{ resource: { attributes: attributes(resource) }, scopeSpans: [{ spans }] }],
  });
  const TOOL = { "gen_ai.operation.name": "execute_tool", "gen_ai.conversation.id": "conversation-1", "user.email": "ben@example.com" };

  it("counts a span naming a skill as a proactive activation in its conversation; other spans are ignored and counted", () => {
    const mapped = eventsOfSpans(traces([span({ ...TOOL, "gen_ai.skill.name": "writing-plans" }), span(TOOL)]), NOW);
    expect(mapped).toEqual({
      events: [
        {
          kind: "activation",
          key: "span:0102030405060708090a0b0c0d0e0f10:a0a1a2a3a4a5a6a7",
          at: new Date(AT),
          sessionId: "conversation-1",
          promptId: null,
          person: "ben@example.com",
          sequence: null,
          skillName: "writing-plans",
          trigger: "proactive",
          skillSource: "other-agent",
        },
      ],
      ignored: 1,
      refused: { count: 0, reasons: [] },
    });
  });

  it("prefers session.id to the conversation id, and the agent's name to the service's", () => {
    const [event] = eventsOfSpans(
      traces([span({ ...TOOL, "gen_ai.skill.name": "writing-plans", "session.id": "session-9", "gen_ai.agent.name": "planner" })]),
      NOW,
    ).events as Activation[];
    expect([event!.sessionId, event!.skillSource]).toEqual(["session-9", "planner"]);
  });

  it("keys a span by the ids a JSON request sent, in span order, else by what it says", () => {
    const request = traces([
      span({ ...TOOL, "gen_ai.skill.name": "a" }, {}),
      span(TOOL, {}),
      span({ ...TOOL, "gen_ai.skill.name": "b" }, {}),
    ]);
    const fromJson = eventsOfSpans(request, NOW, [
      "5b8efff798038103d269b633813fc60c:eee19b7ec3c1b174",
      "x:y",
      "5b8efff798038103d269b633813fc60c:eee19b7ec3c1b175",
    ]);
    expect(fromJson.events.map((event) => event.key)).toEqual([
      "span:5b8efff798038103d269b633813fc60c:eee19b7ec3c1b174",
      "span:5b8efff798038103d269b633813fc60c:eee19b7ec3c1b175",
    ]);
    // No ids at all: the same span says the same, another says something else.
    const [first, second] = eventsOfSpans(request, NOW).events;
    expect(first!.key).toMatch(/^hash:/);
    expect(first!.key).toBe(eventsOfSpans(request, NOW).events[0]!.key);
    expect(second!.key).not.toBe(first!.key);
  });

  it("gives the same key to a span whether it came as protobuf (bytes) or JSON (hex)", () => {
    const fromBytes = eventsOfSpans(traces([span({ ...TOOL, "gen_ai.skill.name": "a" })]), NOW).events[0]!.key;
    const fromJson = eventsOfSpans(traces([span({ ...TOOL, "gen_ai.skill.name": "a" }, {})]), NOW, [
      "0102030405060708090a0b0c0d0e0f10:a0a1a2a3a4a5a6a7",
    ]).events[0]!.key;
    expect(fromJson).toBe(fromBytes);
  });
});
