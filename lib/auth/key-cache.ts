import { LRUCache } from "lru-cache";
import type { Database } from "@/db/client";
import type { TeamChange, TeamChangeFeed } from "@/db/team-changes";
import { hashApiKey, readKeyAuth, type KeyAuth } from "./api-keys";

/** However quiet the feed, an entry is read again after this: a bound on a change that went unheard. */
const ENTRY_TTL_MS = 60_000;

/**
 * What each API key authenticates as (its team, settings and catalog revisions), kept in the App so
 * an agent's request costs no database round trip (issue 14). The database tells every instance
 * when a team's row or one of its keys changes (`Database.teamChanges`), and that team's entries
 * are forgotten: a revoked key or a new catalog is seen by other instances as soon as the notice
 * arrives, and by this instance before the write that made it returns. While nobody listens (the
 * connection dropped, or a driver that cannot listen) every request reads the database, as before.
 * Unknown keys are never kept, so random keys cannot fill the cache.
 */
export class KeyAuthCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000, ttl: ENTRY_TTL_MS });
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

  async authenticate(key: string): Promise<KeyAuth | null> {
    const hash = hashApiKey(key);
    const live = this.feed?.live ?? false;
    const cached = live ? this.entries.get(hash) : undefined;
    if (cached && cached.changesOfTeamWhenRead === this.changesOf(cached.auth.team.id)) return cached.auth;
    const before = this.changesHeard;
    const auth = await readKeyAuth(this.database, hash);
    if (auth && live && this.feed?.live && this.changesHeard === before) {
      this.entries.set(hash, { auth, changesOfTeamWhenRead: this.changesOf(auth.team.id) });
    }
    return auth;
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private changesOf(teamId: number): number {
    return this.changesPerTeam.get(teamId) ?? 0;
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
