import type { App } from "../contracts/app";
import type { BoundMember } from "../auth/api-keys";
import { requireScope } from "../auth/scopes";
import { eventsOfLogs, eventsOfSpans, type Mapped } from "../telemetry/events";
import { ingestTelemetry } from "../telemetry/ingest";
import { ensureTelemetryPartitions, partitionDaysOf } from "../telemetry/partitions";
import {
  answerEncodingOf,
  decodeLogs,
  decodeTraces,
  encodingOf,
  exportResponse,
  jsonSpanIds,
  readOtlpBody,
  statusBody,
  type OtlpEncoding,
  type Signal,
} from "./otlp";
import { answeredError } from "./respond";
import { API_KEYS, authenticate, entryPoint } from "./pipeline";

/**
 * `POST /api/otlp/v1/logs` and `/v1/traces` (docs/telemetry.md#the-receiver): an OpenTelemetry exporter pointed at
 * `<base>/api/otlp` with a key that holds `telemetry` (or `write`, or `admin`). Answers as the
 * OTLP specification says exporters expect: 200 with `partialSuccess` for what was refused, a
 * google.rpc.Status in the request's encoding for a failure, and `Retry-After` on 429 and 503,
 * which the exporters honour. On the request pipeline (lib/http/pipeline.ts): what is its own is
 * the scope, the body and OTLP's answers.
 */
export function otlpRoute(signal: Signal) {
  return entryPoint<unknown>("request", (req, app) => receive(signal, req, app), otlpError);
}

/** One export: its key, scope and body, answered as OTLP says. */
async function receive(signal: Signal, req: Request, app: App): Promise<Response> {
  const auth = await authenticate(app, req, API_KEYS);
  requireScope(auth, "telemetry");
  const encoding = encodingOf(req.headers.get("content-type"));
  const bytes = await readOtlpBody(req);
  const now = new Date();
  const mapped = attributed(mapBatch(signal, bytes, encoding, now), auth.member);
  await ensureTelemetryPartitions(app.db, partitionDaysOf(mapped.events, now), app.telemetryPartitions);
  await ingestTelemetry(app.db, auth.team.id, mapped, app.catalogs.staticNames, now);
  const { count, reasons } = mapped.refused;
  return exportResponse(signal, encoding, count > 0 ? { count, message: reasons.join("; ") } : null);
}

/**
 * What a member key sends is its member's: every event's person becomes their email, whatever
 * the agent said (with an API-key login Claude Code says only a hash). docs/decisions/people-as-people.md.
 */
function attributed(mapped: Mapped, member: BoundMember | null): Mapped {
  if (!member) return mapped;
  return { ...mapped, events: mapped.events.map((event) => ({ ...event, person: member.email })) };
}

function mapBatch(signal: Signal, bytes: Uint8Array, encoding: OtlpEncoding, now: Date): Mapped {
  if (signal === "logs") return eventsOfLogs(decodeLogs(bytes, encoding), now);
  const request = decodeTraces(bytes, encoding);
  return eventsOfSpans(request, now, jsonSpanIds(request));
}

/** An error as OTLP answers it, in the request's encoding: the status and headers of `answeredError`, its message in a google.rpc.Status. */
function otlpError(error: unknown, req: Request): Response {
  const answered = answeredError(error, "receiving telemetry");
  const encoding = answerEncodingOf(req.headers.get("content-type"));
  const { body, contentType } = statusBody(encoding, answered.error.status, answered.error.message);
  return new Response(body, { status: answered.error.status, headers: { ...answered.headers, "content-type": contentType } });
}
