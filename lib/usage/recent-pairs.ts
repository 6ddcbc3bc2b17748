import { LRUCache } from "lru-cache";
import type { Db } from "@/db/client";
import type { UtcDay } from "./rollups";
import { coLoadedPairs, type CoLoadedPage } from "./usage";

/**
 * How long the activation page reuses a team's pairs loaded together. They are a 30-day sum over
 * every pair of every session (480,000 day rows at a million views, some 200 ms to add up), and a
 * minute changes a month's figures by little (docs/decisions/pairs-once-a-minute.md).
 */
export const RECENT_PAIRS_MS = 60_000;

/** The pages of pairs loaded together this instance added up in the last minute, by team, window and page. */
export class RecentPairs {
  private readonly pages: LRUCache<string, Promise<CoLoadedPage>>;

  /** `clock` is the minute's measure (a test's own, to step past it). */
  constructor(
    private readonly db: Db,
    clock: { now(): number } = performance,
  ) {
    this.pages = new LRUCache({ max: 1_024, ttl: RECENT_PAIRS_MS, ttlResolution: 0, perf: clock });
  }

  page(teamId: number, since: UtcDay, page: number): Promise<CoLoadedPage> {
    const key = `${teamId}:${since}:${page}`;
    const held = this.pages.get(key);
    if (held) return held;
    const read = coLoadedPairs(this.db, teamId, since, page);
    this.pages.set(key, read);
    // A failed read (an outage) is not kept: the next visit asks the database again.
    read.catch(() => this.pages.delete(key));
    return read;
  }
}
