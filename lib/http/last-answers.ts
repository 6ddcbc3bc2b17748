import { LRUCache } from "lru-cache";
import type { DatabaseHealth } from "@/db/client";
import { STALE_MAX_MS, type Stale } from "../auth/key-cache";

/** The header (and, in MCP, the `_meta` key) that says an answer comes from memory: seconds since the database confirmed it. */
export const STALE_HEADER = "x-skillgate-stale";
export const STALE_META = "skillgate/stale";

/** What the store may hold in all, and the largest answer it keeps (a big asset is read again). */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

interface Kept<T> {
  value: T;
  bytes: number;
  /** When the database last confirmed it (ms since the epoch). */
  readAt: number;
  /** The team's changes heard when it was kept (KeyAuthCache.changesOf): a change since makes it unusable. */
  teamChanges: number;
  /** What names this answer's content (an HTTP ETag): the same tag again needs no new copy. */
  tag: string | null;
}

/**
 * Answers to one kind of request, the newest per request, bounded in bytes and in age
 * (`STALE_MAX_MS`).
 */
export class AnswerStore<T> {
  private readonly kept = new LRUCache<string, Kept<T>>({
    maxSize: MAX_BYTES,
    maxEntrySize: MAX_ANSWER_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    ttl: STALE_MAX_MS,
  });

  keep(key: string, value: T, bytes: number, teamChanges: number, tag: string | null = null): void {
    if (bytes > MAX_ANSWER_BYTES) this.kept.delete(key);
    else this.kept.set(key, { value, bytes, readAt: Date.now(), teamChanges, tag });
  }

  /**
   * Marks the kept answer confirmed now, when the fresh one carries the same tag: the hot path
   * (skill_view, the listing) then costs a lookup, not a copy of the body. False when there is
   * none to confirm.
   */
  confirm(key: string, tag: string, teamChanges: number): boolean {
    const entry = this.kept.get(key);
    if (!entry || entry.tag !== tag) return false;
    entry.readAt = Date.now();
    entry.teamChanges = teamChanges;
    return true;
  }

  /** The kept answer and its age in whole seconds, if the team has not changed since. */
  find(key: string, teamChanges: number): { value: T; staleSeconds: number } | null {
    const entry = this.kept.get(key);
    if (!entry || entry.teamChanges !== teamChanges) return null;
    return { value: entry.value, staleSeconds: secondsSince(entry.readAt) };
  }

  clear(): void {
    this.kept.clear();
  }
}

/**
 * What agents read (the listing, skill_view, skill_file, skill_list, the skills index), as last
 * answered by this instance, so an outage does not take skills away from running agents
 * (docs/outages.md#stale-answers): while the database is away the same request gets the same answer, marked stale.
 * Also what lets those requests in while the database cannot say: the MCP sessions seen working
 * (API keys and install links: lib/auth/key-cache.ts).
 */
export class LastAnswers {
  readonly responses = new AnswerStore<KeptResponse>();
  /** MCP tool results (lib/mcp/tools.ts), kept as the SDK's result objects. */
  readonly toolResults = new AnswerStore<unknown>();
  /** MCP sessions seen open, and the key that opened them. */
  readonly mcpSessions = new LRUCache<string, number>({ max: 10_000, ttl: STALE_MAX_MS });

  clear(): void {
    this.responses.clear();
    this.toolResults.clear();
    this.mcpSessions.clear();
  }
}

/**
 * Since when what a request was answered with is known only from memory: the key's last
 * confirmation, or — the database found away — its last answer (docs/outages.md#stale-answers: marked from the first
 * second; nothing reaches the database while it is away).
 */
export function staleSinceOf(health: DatabaseHealth, auth: Stale<unknown>): number | undefined {
  return auth.staleSince ?? (health.away ? health.answeredAt : undefined);
}

export function secondsSince(ms: number): number {
  return Math.max(0, Math.floor((Date.now() - ms) / 1000));
}

/** An HTTP answer as kept: its bytes, so it can be sent again. */
export interface KeptResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
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
