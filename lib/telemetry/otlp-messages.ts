/*
 * OTLP's messages as decoded (lib/telemetry/otlp-schema.ts), as far as Skillgate reads them: the
 * schema gives no TypeScript types. Times are int64: a protobufjs Long, or a number or text from JSON.
 */
export type Int64 = number | string | { toNumber(): number; toString(): string };
export interface AnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: AnyValue[] | null } | null;
  kvlistValue?: { values?: KeyValue[] | null } | null;
  bytesValue?: Uint8Array | null;
}
export interface KeyValue {
  key?: string | null;
  value?: AnyValue | null;
}
interface Resource {
  attributes?: KeyValue[] | null;
}
export interface LogRecord {
  timeUnixNano?: Int64 | null;
  observedTimeUnixNano?: Int64 | null;
  body?: AnyValue | null;
  attributes?: KeyValue[] | null;
  eventName?: string | null;
}
export interface Span {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  name?: string | null;
  startTimeUnixNano?: Int64 | null;
  attributes?: KeyValue[] | null;
}
export interface LogsRequest {
  resourceLogs?: { resource?: Resource | null; scopeLogs?: { logRecords?: LogRecord[] | null }[] | null }[] | null;
}
export interface TracesRequest {
  resourceSpans?: { resource?: Resource | null; scopeSpans?: { spans?: Span[] | null }[] | null }[] | null;
}
