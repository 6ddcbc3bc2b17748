import { LRUCache } from "lru-cache";

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

/** A kept answer found for a request the database did not answer, and its age in whole seconds. */
export interface Last<T> {
  value: T;
  staleSeconds: number;
}

/**
 * Answers to one kind of request, the newest per request, bounded in bytes and in age
 * (`maxAgeMs`: as long as a credential is known from memory, lib/auth/key-cache.ts).
 */
export class AnswerStore<T> {
  private readonly kept: LRUCache<string, Kept<T>>;

  constructor(maxAgeMs: number) {
    this.kept = new LRUCache<string, Kept<T>>({
      maxSize: MAX_BYTES,
      maxEntrySize: MAX_ANSWER_BYTES,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
      ttl: maxAgeMs,
    });
  }

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

  /** The kept answer and its age, if the team has not changed since. */
  find(key: string, teamChanges: number): Last<T> | null {
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
 * (docs/outages.md#stale-answers): while the database is away the same request gets the same answer, marked stale
 * (lib/http/pipeline.ts, `answerOrLast`). Also what lets those requests in while the database
 * cannot say: the MCP sessions seen working (API keys and install links: lib/auth/key-cache.ts).
 */
export class LastAnswers {
  /** REST answers (lib/http/last-answers.ts), kept as their bytes. */
  readonly responses: AnswerStore<KeptResponse>;
  /** MCP tool results (lib/mcp/tools.ts), kept as the SDK's result objects. */
  readonly toolResults: AnswerStore<unknown>;
  /** MCP sessions seen open, and the key that opened them. */
  readonly mcpSessions: LRUCache<string, number>;

  /** `maxAgeMs`: how long an answer may be served from memory. */
  constructor(maxAgeMs: number) {
    this.responses = new AnswerStore<KeptResponse>(maxAgeMs);
    this.toolResults = new AnswerStore<unknown>(maxAgeMs);
    this.mcpSessions = new LRUCache<string, number>({ max: 10_000, ttl: maxAgeMs });
  }

  clear(): void {
    this.responses.clear();
    this.toolResults.clear();
    this.mcpSessions.clear();
  }
}

/** An HTTP answer as kept: its bytes, so it can be sent again. */
export interface KeptResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

export function secondsSince(ms: number): number {
  return Math.max(0, Math.floor((Date.now() - ms) / 1000));
}
