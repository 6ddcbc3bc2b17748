import type { DatabaseHealth } from "@/db/client";
import type { Stale } from "../auth/key-cache";
import { secondsSince, type KeptResponse } from "../answer-store";

/** The header (and, in MCP, the `_meta` key) that says an answer comes from memory: seconds since the database confirmed it. */
export const STALE_HEADER = "x-skillgate-stale";
export const STALE_META = "skillgate/stale";

/**
 * Since when what a request was answered with is known only from memory: the key's last
 * confirmation, or — the database found away — its last answer (SPEC §14: marked from the first
 * second; nothing reaches the database while it is away).
 */
export function staleSinceOf(health: DatabaseHealth, auth: Stale<unknown>): number | undefined {
  return auth.staleSince ?? (health.away ? health.answeredAt : undefined);
}

export async function keepable(response: Response): Promise<{ kept: KeptResponse; response: Response }> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = [...response.headers.entries()];
  return { kept: { status: response.status, headers, body }, response: new Response(body, { status: response.status, headers }) };
}

export function staleResponse(kept: KeptResponse, staleSeconds: number): Response {
  const headers = new Headers(kept.headers);
  headers.set(STALE_HEADER, String(staleSeconds));
  return new Response(kept.body, { status: kept.status, headers });
}

/**
 * An answer made while its credential, or everything, was known only from memory, marked so — a
 * refusal too (a file a version does not have, a skill not in the catalog): what it says may have
 * changed since. Failures (5xx) are not from memory.
 */
export function markedIfFromMemory(response: Response, health: DatabaseHealth, auth: Stale<unknown>): Response {
  const staleSince = staleSinceOf(health, auth);
  if (staleSince === undefined || response.status >= 500 || response.headers.has(STALE_HEADER)) return response;
  return markedStale(response, secondsSince(staleSince));
}

/** Marks an answer made from memory while the database is away. */
export function markedStale(response: Response, staleSeconds: number): Response {
  const headers = new Headers(response.headers);
  headers.set(STALE_HEADER, String(staleSeconds));
  return new Response(response.body, { status: response.status, headers });
}
