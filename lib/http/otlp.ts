import { gunzip, inflate } from "node:zlib";
import { promisify } from "node:util";
import { Field, Root, Type } from "protobufjs/light";
// The OpenTelemetry project's protobufjs code, generated from the official OTLP .proto files. 0.214.0
// is the last release that ships the logs and trace decoders (later ones only encode, by hand);
// docs/decisions/otlp-decoder.md.
import otlpRoot from "@opentelemetry/otlp-transformer/build/src/generated/root";
import { AppError } from "../errors";
import { readBytes } from "./body";
import type { LogsRequest, TracesRequest } from "../telemetry/otlp-messages";

/**
 * OTLP over HTTP (https://opentelemetry.io/docs/specs/otlp/#otlphttp), as every OpenTelemetry
 * exporter sends it: an Export*ServiceRequest as protobuf or as JSON, gzip or not. Decoding is the
 * generated code's; this module only picks the message type, unzips within a bound and turns
 * what cannot be decoded into a 400 that says why.
 */

export type Signal = "logs" | "traces";
export type OtlpEncoding = "protobuf" | "json";

/** The static methods protobufjs generates for every message. */
interface MessageType {
  decode(bytes: Uint8Array): object;
  fromObject(value: Record<string, unknown>): object;
  toObject(message: object, options: { longs: typeof String }): Record<string, unknown>;
  encode(message: object): { finish(): Uint8Array };
}
/** The generated namespace, typed as far as it is used here. */
interface Collector {
  logs: { v1: { ExportLogsServiceRequest: MessageType; ExportLogsServiceResponse: MessageType } };
  trace: { v1: { ExportTraceServiceRequest: MessageType; ExportTraceServiceResponse: MessageType } };
}
const { collector } = (otlpRoot as unknown as { opentelemetry: { proto: { collector: Collector } } }).opentelemetry.proto;
const REQUESTS: Record<Signal, MessageType> = {
  logs: collector.logs.v1.ExportLogsServiceRequest,
  traces: collector.trace.v1.ExportTraceServiceRequest,
};
const RESPONSES: Record<Signal, MessageType> = {
  logs: collector.logs.v1.ExportLogsServiceResponse,
  traces: collector.trace.v1.ExportTraceServiceResponse,
};

/** A request's body, compressed or not, and what it unzips to: both bounded (docs/deploy.md, "Telemetry"). */
export const MAX_OTLP_BYTES = 8 * 1024 * 1024;

/** The encoding the content type names, or 415 (the OTLP specification's answer to any other). */
export function encodingOf(contentType: string | null): OtlpEncoding {
  const named = namedEncoding(contentType);
  if (named) return named;
  throw new AppError(
    "UnsupportedMediaType",
    `send OTLP as application/x-protobuf or application/json (got ${contentType ?? "no content type"}); gRPC is not served here`,
  );
}

/**
 * The encoding to answer in, known before the request is checked: an error answers in the
 * request's own encoding (the OTLP specification), so a protobuf exporter refused for its key
 * still gets a Status it can decode. JSON for anything that names neither.
 */
export function answerEncodingOf(contentType: string | null): OtlpEncoding {
  return namedEncoding(contentType) ?? "json";
}

function namedEncoding(contentType: string | null): OtlpEncoding | null {
  const type = (contentType ?? "").replace(/;.*$/, "").trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  return null;
}

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/** The body, unzipped as its Content-Encoding says; a body (or what it unzips to) over the bound is 413. */
export async function readOtlpBody(req: Request): Promise<Uint8Array> {
  const bytes = await readBytes(req, MAX_OTLP_BYTES);
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return bytes;
  const unzip = encoding === "gzip" ? gunzipAsync : encoding === "deflate" ? inflateAsync : null;
  if (!unzip) throw new AppError("UnsupportedMediaType", `content-encoding ${encoding} is not supported; send gzip or nothing`);
  try {
    return await unzip(bytes, { maxOutputLength: MAX_OTLP_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new AppError("PayloadTooLarge", `the body unzips to more than ${MAX_OTLP_BYTES / 1024 / 1024} MiB; send smaller batches`);
    }
    throw new AppError("InvalidOtlp", `the body is not valid ${encoding}: ${(error as Error).message}`);
  }
}

/** The request message of a signal, decoded; 400 with the decoder's reason when it is not one. */
export function decodeLogs(bytes: Uint8Array, encoding: OtlpEncoding): LogsRequest {
  return decode("logs", bytes, encoding) as LogsRequest;
}

export function decodeTraces(bytes: Uint8Array, encoding: OtlpEncoding): TracesRequest {
  return decode("traces", bytes, encoding) as TracesRequest;
}

function decode(signal: Signal, bytes: Uint8Array, encoding: OtlpEncoding): unknown {
  const type = REQUESTS[signal];
  const what = signal === "logs" ? "ExportLogsServiceRequest" : "ExportTraceServiceRequest";
  if (encoding === "protobuf") {
    try {
      return type.decode(bytes);
    } catch (error) {
      throw new AppError("InvalidOtlp", `the body is not a protobuf ${what}: ${(error as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new AppError("InvalidOtlp", `the body is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("InvalidOtlp", `the body is not an OTLP JSON ${what} object`);
  }
  // OTLP JSON writes trace and span ids as hex where protobuf's JSON mapping has base64; they are
  // only ever compared here, never decoded, so they are kept as the text that was sent.
  const ids = hexIdsAside(value);
  try {
    const message = type.fromObject(value as Record<string, unknown>);
    return Object.assign(message, ids.length > 0 ? { hexIds: ids } : {});
  } catch (error) {
    throw new AppError("InvalidOtlp", `the body is not an OTLP JSON ${what}: ${(error as Error).message}`);
  }
}

/** Removes `traceId`/`spanId` text from JSON spans (hex, not base64) and returns it in span order. */
function hexIdsAside(value: object): string[] {
  const ids: string[] = [];
  const resourceSpans = (value as { resourceSpans?: unknown }).resourceSpans;
  if (!Array.isArray(resourceSpans)) return ids;
  for (const resource of resourceSpans) {
    for (const scope of arrayAt(resource, "scopeSpans")) {
      for (const span of arrayAt(scope, "spans")) {
        if (typeof span !== "object" || span === null) continue;
        const record = span as Record<string, unknown>;
        // Lower case, as protobuf's bytes are written: a span is one span whichever way it came.
        ids.push(`${String(record.traceId ?? "").toLowerCase()}:${String(record.spanId ?? "").toLowerCase()}`);
        delete record.traceId;
        delete record.spanId;
        delete record.parentSpanId;
      }
    }
  }
  return ids;
}

function arrayAt(value: unknown, key: string): unknown[] {
  const found = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(found) ? found : [];
}

/** The span ids of a JSON request in span order (hex, as sent); absent for protobuf, whose spans hold them as bytes. */
export function jsonSpanIds(request: TracesRequest): string[] | undefined {
  return (request as { hexIds?: string[] }).hexIds;
}

/** What was refused of a batch, and why: OTLP's partial success. */
export interface Refused {
  count: number;
  message: string;
}

/** OTLP's success answer: an Export*ServiceResponse, with `partialSuccess` when anything was refused. */
export function exportResponse(signal: Signal, encoding: OtlpEncoding, refused: Refused | null): Response {
  const counted = signal === "logs" ? "rejectedLogRecords" : "rejectedSpans";
  const fields = refused && refused.count > 0 ? { partialSuccess: { [counted]: refused.count, errorMessage: refused.message } } : {};
  const type = RESPONSES[signal];
  const message = type.fromObject(fields);
  if (encoding === "json") return Response.json(type.toObject(message, { longs: String }));
  return new Response(Buffer.from(type.encode(message).finish()), { headers: { "content-type": "application/x-protobuf" } });
}

/**
 * google.rpc.Status, the body of an OTLP error answer (the OTLP specification, "Failures"). Not
 * among the generated messages; described here for protobufjs, which encodes it.
 */
const STATUS = new Type("Status").add(new Field("code", 1, "int32")).add(new Field("message", 2, "string"));
new Root().define("google.rpc").add(STATUS);

/** gRPC status codes by HTTP status, as the OTLP specification pairs them. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 500: 13, 502: 14, 503: 14 };

export function statusBody(encoding: OtlpEncoding, httpStatus: number, message: string): { body: BodyInit; contentType: string } {
  const fields = { code: GRPC_CODE[httpStatus] ?? 2, message };
  if (encoding === "json") return { body: JSON.stringify(fields), contentType: "application/json" };
  return { body: Buffer.from(STATUS.encode(STATUS.fromObject(fields)).finish()), contentType: "application/x-protobuf" };
}
