import { getApp } from "../current-app";
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
import { withRateLimitHeaders } from "./rate-limit-headers";
import { answeredError } from "./respond";
import { authenticateRequest, withinBudget } from "./route";

/**
 * `POST /api/otlp/v1/logs` and `/v1/traces` (docs/telemetry.md#the-receiver): an OpenTelemetry exporter pointed at
 * `<base>/api/otlp` with a key that holds `telemetry` (or `write`, or `admin`). Answers as the
 * OTLP specification says exporters expect: 200 with `partialSuccess` for what was refused, a
 * google.rpc.Status in the request's encoding for a failure, and `Retry-After` on 429 and 503,
 * which the exporters honour.
 */
export function otlpRoute(signal: Signal) {
  return (req: Request): Promise<Response> => withinBudget("request", async () => withRateLimitHeaders(req, await receive(signal, req)));
}

/** One export: its key, scope and body, answered as OTLP says. */
async function receive(signal: Signal, req: Request): Promise<Response> {
  const contentType = req.headers.get("content-type");
  const answerEncoding = answerEncodingOf(contentType);
  try {
    const app = await getApp();
    const auth = await authenticateRequest(app, req);
    requireScope(auth, "telemetry");
    const encoding = encodingOf(contentType);
    const bytes = await readOtlpBody(req);
    const now = new Date();
    const mapped = attributed(mapBatch(signal, bytes, encoding, now), auth.member);
    await ensureTelemetryPartitions(app.db, partitionDaysOf(mapped.events, now), app.telemetryPartitions);
    await ingestTelemetry(app.db, auth.team.id, mapped, app.catalogs.staticNames, now);
    const { count, reasons } = mapped.refused;
    return exportResponse(signal, encoding, count > 0 ? { count, message: reasons.join("; ") } : null);
  } catch (error) {
    return otlpError(error, answerEncoding);
  }
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

/** An error as OTLP answers it: the status and headers of `answeredError`, its message in a google.rpc.Status. */
function otlpError(error: unknown, encoding: OtlpEncoding): Response {
  const answered = answeredError(error, "receiving telemetry");
  const { body, contentType } = statusBody(encoding, answered.error.status, answered.error.message);
  return new Response(body, { status: answered.error.status, headers: { ...answered.headers, "content-type": contentType } });
}
