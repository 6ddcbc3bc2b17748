import { LRUCache } from "lru-cache";
import type { Database } from "@/db/client";
import type { TeamChange, TeamChangeFeed } from "@/db/team-changes";
import { isDatabaseOutage } from "@/db/outage";
import { hashApiKey, readKeyAuth, type KeyAuth } from "./api-keys";

/** However quiet the feed, an entry is read again after this: a bound on a change that went unheard. */
const ENTRY_TTL_MS = 60_000;
/**
 * The longest an answer read from the database is served from memory while the database is away
 * (SPEC §14): a key, and what agents read with it (lib/http/last-answers.ts).
 */
export const STALE_MAX_MS = 24 * 3_600_000;

/** A key as authenticated from memory during an outage: when the database last confirmed it. */
export type StaleKeyAuth = KeyAuth & { staleSince?: number };

/**
 * What each API key authenticates as (its team, settings and catalog revisions), kept in the App so
 * an agent's request costs no database round trip (issue 14). The database tells every instance
 * when a team's row or one of its keys changes (`Database.teamChanges`), and that team's entries
 * are forgotten: a revoked key or a new catalog is seen by other instances as soon as the notice
 * arrives, and by this instance before the write that made it returns. While nobody listens (the
 * connection dropped, or a driver that cannot listen) every request reads the database, as before.
 * Unknown keys are never kept, so random keys cannot fill the cache.
 *
 * While the database is away, a key read before is still known (`lastKnown`, for up to
 * `STALE_MAX_MS`) unless a change to its team was heard since — a revoked key, a revoked install
 * link, new settings — so agents keep reading what this instance holds, marked stale.
 */
export class KeyAuthCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000, ttl: ENTRY_TTL_MS });
  private readonly lastKnown = new LRUCache<string, Entry & { readAt: number }>({ max: 10_000, ttl: STALE_MAX_MS });
  /**
   * Changes heard per team: an entry read before its team's last change is stale. A notice comes
   * once from each listening connection, so forgetting a team must cost nothing, not a scan.
   */
  private readonly changesPerTeam = new Map<number, number>();
  /** Counts changes heard: a read that a change overtook is not kept, as it may hold what the change replaced. */
  private changesHeard = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly database: Pick<Database, "query">,
    private readonly feed: TeamChangeFeed | null,
  ) {
    this.unsubscribe = feed?.subscribe((change) => this.forget(change)) ?? (() => {});
  }

  async authenticate(key: string): Promise<StaleKeyAuth | null> {
    const hash = hashApiKey(key);
    const live = this.feed?.live ?? false;
    const cached = live ? this.entries.get(hash) : undefined;
    if (cached && this.unchanged(cached)) return cached.auth;
    const before = this.changesHeard;
    let auth: KeyAuth | null;
    try {
      auth = await readKeyAuth(this.database, hash);
    } catch (error) {
      const known = this.lastKnown.get(hash);
      if (known && this.unchanged(known) && isDatabaseOutage(error)) return { ...known.auth, staleSince: known.readAt };
      throw error;
    }
    if (!auth) this.lastKnown.delete(hash);
    else if (this.changesHeard === before) {
      const entry = { auth, changesOfTeamWhenRead: this.changesOf(auth.team.id) };
      this.lastKnown.set(hash, { ...entry, readAt: Date.now() });
      if (live && this.feed?.live) this.entries.set(hash, entry);
    }
    return auth;
  }

  /** How many changes to the team this instance has heard: an answer kept with this number is still the team's. */
  changesOf(teamId: number): number {
    return this.changesPerTeam.get(teamId) ?? 0;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
    this.lastKnown.clear();
  }

  private unchanged(entry: Entry): boolean {
    return entry.changesOfTeamWhenRead === this.changesOf(entry.auth.team.id);
  }

  private forget(change: TeamChange): void {
    this.changesHeard++;
    if (change === "all") this.entries.clear();
    else this.changesPerTeam.set(change, this.changesOf(change) + 1);
  }
}

interface Entry {
  auth: KeyAuth;
  changesOfTeamWhenRead: number;
}
