import { Root, type INamespace, type Type } from "protobufjs/light";

/*
 * OTLP's logs and trace requests, their answers and google.rpc.Status, as protobufjs decodes and
 * encodes them: the only module that knows protobuf (docs/decisions/otlp-decoder.md).
 *
 * The schema is the official OTLP .proto files' (opentelemetry-proto, Apache-2.0), written as the
 * JSON descriptor `pbjs -t json` prints: the messages of a logs or a trace request whole (every
 * field, so a request is checked as the .proto files check it), the two answers and nothing else.
 * Package, message and field names are the official ones: protobufjs names them in what it refuses
 * (`.opentelemetry.proto.logs.v1.ResourceLogs.scopeLogs: array expected`).
 */

const COMMON: INamespace = {
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
      fields: {
        stringValue: { type: "string", id: 1 },
        boolValue: { type: "bool", id: 2 },
        intValue: { type: "int64", id: 3 },
        doubleValue: { type: "double", id: 4 },
        arrayValue: { type: "ArrayValue", id: 5 },
        kvlistValue: { type: "KeyValueList", id: 6 },
        bytesValue: { type: "bytes", id: 7 },
      },
    },
    ArrayValue: { fields: { values: { rule: "repeated", type: "AnyValue", id: 1 } } },
    KeyValueList: { fields: { values: { rule: "repeated", type: "KeyValue", id: 1 } } },
    KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
    InstrumentationScope: {
      fields: {
        name: { type: "string", id: 1 },
        version: { type: "string", id: 2 },
        attributes: { rule: "repeated", type: "KeyValue", id: 3 },
        droppedAttributesCount: { type: "uint32", id: 4 },
      },
    },
    EntityRef: {
      fields: {
        schemaUrl: { type: "string", id: 1 },
        type: { type: "string", id: 2 },
        idKeys: { rule: "repeated", type: "string", id: 3 },
        descriptionKeys: { rule: "repeated", type: "string", id: 4 },
      },
    },
  },
};

const RESOURCE: INamespace = {
  nested: {
    Resource: {
      fields: {
        attributes: { rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id: 1 },
        droppedAttributesCount: { type: "uint32", id: 2 },
        entityRefs: { rule: "repeated", type: "opentelemetry.proto.common.v1.EntityRef", id: 3 },
      },
    },
  },
};

const LOGS: INamespace = {
  nested: {
    ResourceLogs: {
      fields: {
        resource: { type: "opentelemetry.proto.resource.v1.Resource", id: 1 },
        scopeLogs: { rule: "repeated", type: "ScopeLogs", id: 2 },
        schemaUrl: { type: "string", id: 3 },
      },
    },
    ScopeLogs: {
      fields: {
        scope: { type: "opentelemetry.proto.common.v1.InstrumentationScope", id: 1 },
        logRecords: { rule: "repeated", type: "LogRecord", id: 2 },
        schemaUrl: { type: "string", id: 3 },
      },
    },
    SeverityNumber: {
      values: {
        SEVERITY_NUMBER_UNSPECIFIED: 0,
        SEVERITY_NUMBER_TRACE: 1,
        SEVERITY_NUMBER_TRACE2: 2,
        SEVERITY_NUMBER_TRACE3: 3,
        SEVERITY_NUMBER_TRACE4: 4,
        SEVERITY_NUMBER_DEBUG: 5,
        SEVERITY_NUMBER_DEBUG2: 6,
        SEVERITY_NUMBER_DEBUG3: 7,
        SEVERITY_NUMBER_DEBUG4: 8,
        SEVERITY_NUMBER_INFO: 9,
        SEVERITY_NUMBER_INFO2: 10,
        SEVERITY_NUMBER_INFO3: 11,
        SEVERITY_NUMBER_INFO4: 12,
        SEVERITY_NUMBER_WARN: 13,
        SEVERITY_NUMBER_WARN2: 14,
        SEVERITY_NUMBER_WARN3: 15,
        SEVERITY_NUMBER_WARN4: 16,
        SEVERITY_NUMBER_ERROR: 17,
        SEVERITY_NUMBER_ERROR2: 18,
        SEVERITY_NUMBER_ERROR3: 19,
        SEVERITY_NUMBER_ERROR4: 20,
        SEVERITY_NUMBER_FATAL: 21,
        SEVERITY_NUMBER_FATAL2: 22,
        SEVERITY_NUMBER_FATAL3: 23,
        SEVERITY_NUMBER_FATAL4: 24,
      },
    },
    LogRecord: {
      fields: {
        timeUnixNano: { type: "fixed64", id: 1 },
        observedTimeUnixNano: { type: "fixed64", id: 11 },
        severityNumber: { type: "SeverityNumber", id: 2 },
        severityText: { type: "string", id: 3 },
        body: { type: "opentelemetry.proto.common.v1.AnyValue", id: 5 },
        attributes: { rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id: 6 },
        droppedAttributesCount: { type: "uint32", id: 7 },
        flags: { type: "fixed32", id: 8 },
        traceId: { type: "bytes", id: 9 },
        spanId: { type: "bytes", id: 10 },
        eventName: { type: "string", id: 12 },
      },
    },
  },
};

const TRACE: INamespace = {
  nested: {
    ResourceSpans: {
      fields: {
        resource: { type: "opentelemetry.proto.resource.v1.Resource", id: 1 },
        scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 },
        schemaUrl: { type: "string", id: 3 },
      },
    },
    ScopeSpans: {
      fields: {
        scope: { type: "opentelemetry.proto.common.v1.InstrumentationScope", id: 1 },
        spans: { rule: "repeated", type: "Span", id: 2 },
        schemaUrl: { type: "string", id: 3 },
      },
    },
    Span: {
      fields: {
        traceId: { type: "bytes", id: 1 },
        spanId: { type: "bytes", id: 2 },
        traceState: { type: "string", id: 3 },
        parentSpanId: { type: "bytes", id: 4 },
        flags: { type: "fixed32", id: 16 },
        name: { type: "string", id: 5 },
        kind: { type: "SpanKind", id: 6 },
        startTimeUnixNano: { type: "fixed64", id: 7 },
        endTimeUnixNano: { type: "fixed64", id: 8 },
        attributes: { rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id: 9 },
        droppedAttributesCount: { type: "uint32", id: 10 },
        events: { rule: "repeated", type: "Event", id: 11 },
        droppedEventsCount: { type: "uint32", id: 12 },
        links: { rule: "repeated", type: "Link", id: 13 },
        droppedLinksCount: { type: "uint32", id: 14 },
        status: { type: "Status", id: 15 },
      },
      nested: {
        SpanKind: {
          values: {
            SPAN_KIND_UNSPECIFIED: 0,
            SPAN_KIND_INTERNAL: 1,
            SPAN_KIND_SERVER: 2,
            SPAN_KIND_CLIENT: 3,
            SPAN_KIND_PRODUCER: 4,
            SPAN_KIND_CONSUMER: 5,
          },
        },
        Event: {
          fields: {
            timeUnixNano: { type: "fixed64", id: 1 },
            name: { type: "string", id: 2 },
            attributes: { rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id: 3 },
            droppedAttributesCount: { type: "uint32", id: 4 },
          },
        },
        Link: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            traceState: { type: "string", id: 3 },
            attributes: { rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id: 4 },
            droppedAttributesCount: { type: "uint32", id: 5 },
            flags: { type: "fixed32", id: 6 },
          },
        },
      },
    },
    Status: {
      fields: { message: { type: "string", id: 2 }, code: { type: "StatusCode", id: 3 } },
      nested: { StatusCode: { values: { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 } } },
    },
  },
};

/** An Export*ServiceRequest, its answer and the answer's partial success: `list` names the request's one field. */
function service(signal: string, list: string, resources: string, rejected: string): INamespace {
  return {
    nested: {
      [`Export${signal}ServiceRequest`]: {
        fields: { [list]: { rule: "repeated", type: `opentelemetry.proto.${resources}`, id: 1 } },
      },
      [`Export${signal}ServiceResponse`]: { fields: { partialSuccess: { type: `Export${signal}PartialSuccess`, id: 1 } } },
      [`Export${signal}PartialSuccess`]: { fields: { [rejected]: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
    },
  };
}

/** The body of an OTLP error answer (the OTLP specification, "Failures"), without its `details`. */
const RPC: INamespace = { nested: { Status: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } } } };

const v1 = (namespace: INamespace): INamespace => ({ nested: { v1: namespace } });

const root = Root.fromJSON({
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: v1(COMMON),
            resource: v1(RESOURCE),
            logs: v1(LOGS),
            trace: v1(TRACE),
            collector: {
              nested: {
                logs: v1(service("Logs", "resourceLogs", "logs.v1.ResourceLogs", "rejectedLogRecords")),
                trace: v1(service("Trace", "resourceSpans", "trace.v1.ResourceSpans", "rejectedSpans")),
              },
            },
          },
        },
      },
    },
    google: { nested: { rpc: RPC } },
  },
});
root.resolveAll();

export type Signal = "logs" | "traces";

const LOGS_SERVICE = "opentelemetry.proto.collector.logs.v1";
const TRACE_SERVICE = "opentelemetry.proto.collector.trace.v1";
const REQUESTS: Record<Signal, Type> = {
  logs: root.lookupType(`${LOGS_SERVICE}.ExportLogsServiceRequest`),
  traces: root.lookupType(`${TRACE_SERVICE}.ExportTraceServiceRequest`),
};
const RESPONSES: Record<Signal, Type> = {
  logs: root.lookupType(`${LOGS_SERVICE}.ExportLogsServiceResponse`),
  traces: root.lookupType(`${TRACE_SERVICE}.ExportTraceServiceResponse`),
};
const STATUS = root.lookupType("google.rpc.Status");

/*
 * Requests come back as plain objects holding only the fields that were sent: an absent field
 * reads as undefined, never as protobuf's zero value (an AnyValue that holds an int has no
 * `stringValue`). int64 stays a Long, bytes stay bytes.
 */

/** A request of the signal from protobuf bytes; throws protobufjs's error when it is not one. */
export function decodeRequest(signal: Signal, bytes: Uint8Array): object {
  const type = REQUESTS[signal];
  return type.toObject(type.decode(bytes));
}

/** A request of the signal from its OTLP/JSON object; throws protobufjs's error when it is not one. */
export function requestFromJson(signal: Signal, value: Record<string, unknown>): object {
  const type = REQUESTS[signal];
  return type.toObject(type.fromObject(value));
}

/** The fields of an Export*ServiceResponse by their JSON names: `{ partialSuccess?: { rejected…, errorMessage } }`. */
export type ResponseFields = Record<string, unknown>;

/** The answer as OTLP/JSON writes it: int64 as text. */
export function responseJson(signal: Signal, fields: ResponseFields): Record<string, unknown> {
  const type = RESPONSES[signal];
  return type.toObject(type.fromObject(fields), { longs: String });
}

export function responseProtobuf(signal: Signal, fields: ResponseFields): Uint8Array {
  const type = RESPONSES[signal];
  return type.encode(type.fromObject(fields)).finish();
}

export function statusProtobuf(fields: { code: number; message: string }): Uint8Array {
  return STATUS.encode(STATUS.fromObject(fields)).finish();
}
