import { SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { decodeLogs, decodeTraces, exportResponse, jsonSpanIds, statusBody, type OtlpEncoding } from "@/lib/http/otlp";

/*
 * The OTLP decoder (lib/telemetry/otlp-schema.ts, behind lib/http/otlp.ts) against the
 * OpenTelemetry JS SDK's own serializers: the hand-written protobuf and JSON writers its exporters
 * send with, which share nothing with our schema. Every field they write is asserted as read,
 * so a field renamed or renumbered in the schema, a protobufjs that reads differently or an
 * encoder that writes differently fails here (docs/decisions/otlp-decoder.md).
 */

const RESOURCE = resourceFromAttributes({ "service.name": "claude-code", "service.version": "2.1.0" });
const SCOPE = { name: "com.anthropic.claude_code.events", version: "2.1.0" };

/** Claude Code's skill_activated as its telemetry sends it, with every attribute events.ts reads of one. */
const ACTIVATED: ReadableLogRecord = {
  hrTime: [1767225600, 123456789],
  hrTimeObserved: [1767225601, 5],
  severityNumber: SeverityNumber.INFO,
  severityText: "INFO",
  body: "claude_code.skill_activated",
  eventName: "claude_code.skill_activated",
  resource: RESOURCE,
  instrumentationScope: SCOPE,
  attributes: {
    "event.name": "skill_activated",
    "event.timestamp": "2026-01-01T00:00:00.123Z",
    "event.sequence": 41,
    "session.id": "session-1",
    "prompt.id": "prompt-1",
    "user.email": "ana@example.com",
    "user.account_uuid": "0d1c2b3a-0000-4000-8000-00000000000a",
    "skill.name": "writing-plans",
    "skill.source": "projectSettings",
    invocation_trigger: "claude-proactive",
  },
  droppedAttributesCount: 0,
};

/** Every kind of AnyValue: the numbers and flags of a tool result and an API request, and the rest. */
const VALUES: ReadableLogRecord = {
  hrTime: [1767225602, 0],
  hrTimeObserved: [1767225602, 999999999],
  body: { tool: "Bash", ok: true },
  resource: RESOURCE,
  instrumentationScope: SCOPE,
  attributes: {
    success: "true",
    duration_ms: 40,
    cost_usd: 0.0125,
    input_tokens: 2 ** 40 + 3,
    delta: -7,
    cached: false,
    tools: ["Bash", 2, true],
    raw: new Uint8Array([0, 1, 254, 255]),
  },
  droppedAttributesCount: 2,
};

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const SPAN_ID = "b7ad6b7169203331";
const PARENT_ID = "00f067aa0ba902b7";

/** Another agent's GenAI execute_tool span naming the skill it loaded. */
const EXECUTE_TOOL: ReadableSpan = {
  name: "execute_tool load_skill",
  kind: SpanKind.INTERNAL,
  spanContext: () => ({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED }),
  parentSpanContext: { traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: TraceFlags.SAMPLED },
  startTime: [1767225600, 500000000],
  endTime: [1767225600, 750000001],
  status: { code: SpanStatusCode.ERROR, message: "tool failed" },
  attributes: {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.conversation.id": "conversation-1",
    "gen_ai.agent.name": "other-agent",
    "gen_ai.skill.name": "writing-plans",
    "user.email": "ben@example.com",
  },
  links: [],
  events: [{ name: "loaded", time: [1767225600, 600000000], attributes: { bytes: 512 }, droppedAttributesCount: 0 }],
  duration: [0, 250000001],
  ended: true,
  resource: resourceFromAttributes({ "service.name": "other-agent" }),
  instrumentationScope: { name: "other-agent", version: "1.0.0" },
  droppedAttributesCount: 0,
  droppedEventsCount: 0,
  droppedLinksCount: 0,
};

function logsWire(encoding: OtlpEncoding, records: ReadableLogRecord[]): Uint8Array {
  const serializer = encoding === "protobuf" ? ProtobufLogsSerializer : JsonLogsSerializer;
  return serializer.serializeRequest(records)!;
}

function tracesWire(encoding: OtlpEncoding, spans: ReadableSpan[]): Uint8Array {
  const serializer = encoding === "protobuf" ? ProtobufTraceSerializer : JsonTraceSerializer;
  return serializer.serializeRequest(spans)!;
}

/**
 * What code reading a decoded message sees, field by field: int64 as `int64:<digits>`, bytes as
 * `bytes:<hex>`. `for…in` walks inherited fields too, so a default that `message.field` would
 * read from a prototype (protobuf's "" or 0 for a field never sent) shows here as well.
 */
function seen(value: unknown): unknown {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return value.map(seen);
  if (typeof value !== "object" || value === null) return value;
  if ("low" in value && "high" in value && "unsigned" in value) return `int64:${String(value)}`;
  const fields: Record<string, unknown> = {};
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field !== "function") fields[key] = seen(field);
  }
  return fields;
}

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: string) => ({ key, value: { intValue: `int64:${value}` } });

const LOGS_RESOURCE = { attributes: [text("service.name", "claude-code"), text("service.version", "2.1.0")], droppedAttributesCount: 0 };

const ACTIVATED_SEEN = {
  timeUnixNano: "int64:1767225600123456789",
  severityNumber: 9,
  severityText: "INFO",
  body: { stringValue: "claude_code.skill_activated" },
  attributes: [
    text("event.name", "skill_activated"),
    text("event.timestamp", "2026-01-01T00:00:00.123Z"),
    int("event.sequence", "41"),
    text("session.id", "session-1"),
    text("prompt.id", "prompt-1"),
    text("user.email", "ana@example.com"),
    text("user.account_uuid", "0d1c2b3a-0000-4000-8000-00000000000a"),
    text("skill.name", "writing-plans"),
    text("skill.source", "projectSettings"),
    text("invocation_trigger", "claude-proactive"),
  ],
  droppedAttributesCount: 0,
  observedTimeUnixNano: "int64:1767225601000000005",
  eventName: "claude_code.skill_activated",
};

const VALUES_SEEN = {
  timeUnixNano: "int64:1767225602000000000",
  body: { kvlistValue: { values: [text("tool", "Bash"), { key: "ok", value: { boolValue: true } }] } },
  attributes: [
    text("success", "true"),
    int("duration_ms", "40"),
    { key: "cost_usd", value: { doubleValue: 0.0125 } },
    int("input_tokens", "1099511627779"),
    int("delta", "-7"),
    { key: "cached", value: { boolValue: false } },
    {
      key: "tools",
      value: { arrayValue: { values: [{ stringValue: "Bash" }, { intValue: "int64:2" }, { boolValue: true }] } },
    },
    { key: "raw", value: { bytesValue: "bytes:0001feff" } },
  ],
  droppedAttributesCount: 2,
  observedTimeUnixNano: "int64:1767225602999999999",
};

describe("decoding OTLP logs", () => {
  it.each(["protobuf", "json"] as const)("reads every field the SDK's %s exporter writes", (encoding) => {
    const decoded = decodeLogs(logsWire(encoding, [ACTIVATED, VALUES]), encoding);
    expect(seen(decoded)).toStrictEqual({
      resourceLogs: [
        {
          resource: LOGS_RESOURCE,
          scopeLogs: [{ scope: { name: SCOPE.name, version: SCOPE.version }, logRecords: [ACTIVATED_SEEN, VALUES_SEEN] }],
        },
      ],
    });
  });

  it("refuses a body cut short, and JSON of the wrong shape, naming the OTLP message", () => {
    const wire = logsWire("protobuf", [ACTIVATED]);
    expect(() => decodeLogs(wire.subarray(0, wire.length - 7), "protobuf")).toThrow(
      new AppError("InvalidOtlp", "the body is not a protobuf ExportLogsServiceRequest: index out of range"),
    );
    const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    expect(() => decodeLogs(json({ resourceLogs: {} }), "json")).toThrow(
      "the body is not an OTLP JSON ExportLogsServiceRequest: .opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest.resourceLogs: array expected",
    );
    expect(() => decodeLogs(json({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: 5 }] }] }] }), "json")).toThrow(
      "the body is not an OTLP JSON ExportLogsServiceRequest: .opentelemetry.proto.logs.v1.LogRecord.attributes: array expected",
    );
  });
});

describe("decoding OTLP traces", () => {
  const spanSeen = {
    name: "execute_tool load_skill",
    kind: 1,
    startTimeUnixNano: "int64:1767225600500000000",
    endTimeUnixNano: "int64:1767225600750000001",
    attributes: [
      text("gen_ai.operation.name", "execute_tool"),
      text("gen_ai.conversation.id", "conversation-1"),
      text("gen_ai.agent.name", "other-agent"),
      text("gen_ai.skill.name", "writing-plans"),
      text("user.email", "ben@example.com"),
    ],
    droppedAttributesCount: 0,
    events: [{ timeUnixNano: "int64:1767225600600000000", name: "loaded", attributes: [int("bytes", "512")], droppedAttributesCount: 0 }],
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    status: { message: "tool failed", code: 2 },
  };
  const scopeSpans = (span: object) => [
    {
      resource: { attributes: [text("service.name", "other-agent")], droppedAttributesCount: 0 },
      scopeSpans: [{ scope: { name: "other-agent", version: "1.0.0" }, spans: [span] }],
    },
  ];

  it("reads every field the SDK's protobuf exporter writes, ids as bytes", () => {
    const decoded = decodeTraces(tracesWire("protobuf", [EXECUTE_TOOL]), "protobuf");
    expect(seen(decoded)).toStrictEqual({
      resourceSpans: scopeSpans({
        traceId: `bytes:${TRACE_ID}`,
        spanId: `bytes:${SPAN_ID}`,
        parentSpanId: `bytes:${PARENT_ID}`,
        flags: 0x101,
        ...spanSeen,
      }),
    });
    expect(jsonSpanIds(decoded)).toBeUndefined();
  });

  it("reads every field the SDK's JSON exporter writes, its hex ids set aside as sent", () => {
    const decoded = decodeTraces(tracesWire("json", [EXECUTE_TOOL]), "json");
    const { hexIds, ...request } = decoded as { hexIds: string[] };
    expect(hexIds).toStrictEqual([`${TRACE_ID}:${SPAN_ID}`]);
    expect(jsonSpanIds(decoded)).toBe(hexIds);
    expect(seen(request)).toStrictEqual({ resourceSpans: scopeSpans({ flags: 0x101, ...spanSeen }) });
  });
});

describe("answering OTLP", () => {
  it("writes Export*ServiceResponse as the SDK's exporters read it, partialSuccess only when something was refused", async () => {
    const refused = { count: 3, message: "3 skill_activated without skill.name" };
    const read = async (response: Response) => new Uint8Array(await response.arrayBuffer());
    expect(ProtobufLogsSerializer.deserializeResponse(await read(exportResponse("logs", "protobuf", refused)))).toStrictEqual({
      partialSuccess: { rejectedLogRecords: 3, errorMessage: refused.message },
    });
    expect(ProtobufTraceSerializer.deserializeResponse(await read(exportResponse("traces", "protobuf", refused)))).toStrictEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: refused.message },
    });
    expect(ProtobufLogsSerializer.deserializeResponse(await read(exportResponse("logs", "protobuf", null)))).toStrictEqual({});
    expect(await exportResponse("logs", "json", refused).text()).toBe(
      '{"partialSuccess":{"rejectedLogRecords":"3","errorMessage":"3 skill_activated without skill.name"}}',
    );
    expect(await exportResponse("traces", "json", { count: 0, message: "" }).text()).toBe("{}");
  });

  it("writes google.rpc.Status: code = 1, message = 2", () => {
    const { body, contentType } = statusBody("protobuf", 401, "no key");
    expect(contentType).toBe("application/x-protobuf");
    expect([...(body as Buffer)]).toStrictEqual([0x08, 16, 0x12, 6, ...Buffer.from("no key")]);
    expect(statusBody("json", 413, "too big")).toStrictEqual({ body: '{"code":8,"message":"too big"}', contentType: "application/json" });
  });
});
