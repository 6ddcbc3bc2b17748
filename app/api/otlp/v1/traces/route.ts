import { otherMethods } from "@/lib/http/methods";
import { otlpRoute } from "@/lib/http/otlp-route";

/** POST /api/otlp/v1/traces — OTLP/HTTP from an agent's OpenTelemetry exporter (docs/telemetry.md#the-receiver). */
export const POST = otlpRoute("traces");

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
