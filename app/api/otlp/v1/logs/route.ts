import { otherMethods } from "@/lib/http/methods";
import { otlpRoute } from "@/lib/http/otlp-route";

/** POST /api/otlp/v1/logs — OTLP/HTTP from an agent's OpenTelemetry exporter (docs/telemetry.md#the-receiver). */
export const POST = otlpRoute("logs");

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
