import { LRUCache } from "lru-cache";
import type { Database } from "@/db/client";
import type { TeamChange, TeamChangeFeed } from "@/db/team-changes";
import { isUnanswered } from "@/db/outage";
import { sha256Hex } from "../hash";
import { authenticateInstallLink, type LinkAuth } from "./install-link-auth";
import { hashApiKey, readKeyAuth, type KeyAuth } from "./api-keys";

/** However quiet the feed, an entry is read again after this: a bound on a change that went unheard. */
const ENTRY_TTL_MS = 60_000;
/**
 * The longest an answer read from the database is served from memory while the database is away
 * (docs/outages.md#stale-answers): a key, and what agents read with it (lib/http/last-answers.ts, kept in lib/answer-store.ts).
 */
export const STALE_MAX_MS = 24 * 3_600_000;

/** A key as authenticated from memory during an outage: when the database last confirmed it. */
export type StaleKeyAuth = Stale<KeyAuth>;

/**
 * What each API key and install link authenticates as (its team, settings and catalog revisions),
 * kept in the App so an agent's request costs no database round trip (issue 14; an installer's
 * burst of two thousand file requests, issue 38). The database tells every instance when a team's
 * row, one of its keys or one of its links changes (`Database.teamChanges`), and that team's
 * entries are forgotten: a revoked key or link, or a new catalog, is seen by other instances as
 * soon as the notice arrives, and by this instance before the write that made it returns. While
 * nobody listens (the connection dropped, a driver that cannot listen, a server found away) every
 * request reads the database, as before. Unknown credentials are never kept, so random ones cannot
 * fill the cache.
 *
 * While the database does not answer, a credential read before is still known (`lastKnown`, for up
 * to `STALE_MAX_MS`) unless a change to its team was heard since — a revoked key, a revoked install
 * link, new settings — so agents keep reading what this instance holds, marked stale.
 */
export class KeyAuthCache {
  private readonly entries = new LRUCache<string, Entry<Credential>>({ max: 10_000, ttl: ENTRY_TTL_MS });
  private readonly lastKnown = new LRUCache<string, Entry<Credential> & { readAt: number }>({ max: 10_000, ttl: STALE_MAX_MS });
  /**
   * Changes heard per team: an entry read before its team's last change is stale. A notice comes
   * once from each listening connection, so forgetting a team must cost nothing, not a scan.
   */
  private readonly changesPerTeam = new Map<number, number>();
  /** Counts changes heard: a read that a change overtook is not kept, as it may hold what the change replaced. */
  private changesHeard = 0;
  /**
   * Reads under way, by credential: a burst of requests with one key or link that is not known
   * yet (an installer asks for two thousand files at once) makes one read, not one each. A read
   * begun before a change was heard is not joined: it may hold what the change replaced.
   */
  private readonly reading = new Map<string, { changesHeard: number; read: Promise<Credential | null> }>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly database: Pick<Database, "query" | "health">,
    private readonly feed: TeamChangeFeed | null,
  ) {
    this.unsubscribe = feed?.subscribe((change) => this.forget(change)) ?? (() => {});
  }

  authenticate(key: string): Known<StaleKeyAuth> {
    const hash = hashApiKey(key);
    return this.known(`key ${hash}`, () => readKeyAuth(this.database, hash));
  }

  /** An install link's token (lib/teams/install-links.ts), as a key is authenticated. */
  authenticateLink(token: string): Known<Stale<LinkAuth>> {
    return this.known(`link ${sha256Hex(token)}`, () => authenticateInstallLink(this.database, token));
  }

  /** A credential kept and unchanged is answered at once, not as a promise: a warm request awaits nothing for it (docs/hot-path.md). */
  private known<T extends Credential>(id: string, read: () => Promise<T | null>): Known<Stale<T>> {
    // A feed that cannot hear the server vouches for nothing: while the server is away, every
    // credential is read again, and known only from memory, marked stale, when it does not answer.
    const live = (this.feed?.live ?? false) && !this.database.health.away;
    const cached = live ? this.entries.get(id) : undefined;
    if (cached && this.unchanged(cached)) return cached.auth as T;
    return this.readAndKeep(id, read, live);
  }

  private async readAndKeep<T extends Credential>(id: string, read: () => Promise<T | null>, live: boolean): Promise<Stale<T> | null> {
    const before = this.changesHeard;
    let auth: T | null;
    try {
      auth = await this.readOnce(id, read);
    } catch (error) {
      const known = this.lastKnown.get(id);
      if (known && this.unchanged(known) && isUnanswered(error)) return { ...(known.auth as T), staleSince: known.readAt };
      throw error;
    }
    if (!auth) this.lastKnown.delete(id);
    else if (this.changesHeard === before) {
      const entry = { auth, changesOfTeamWhenRead: this.changesOf(auth.team.id) };
      this.lastKnown.set(id, { ...entry, readAt: Date.now() });
      if (live && this.feed?.live) this.entries.set(id, entry);
    }
    return auth;
  }

  /** `read`, or the same read already under way for `id` since the last change heard. */
  private readOnce<T extends Credential>(id: string, read: () => Promise<T | null>): Promise<T | null> {
    const underWay = this.reading.get(id);
    if (underWay && underWay.changesHeard === this.changesHeard) return underWay.read as Promise<T | null>;
    const entry = { changesHeard: this.changesHeard, read: read() };
    this.reading.set(id, entry);
    const done = () => {
      if (this.reading.get(id) === entry) this.reading.delete(id);
    };
    entry.read.then(done, done);
    return entry.read as Promise<T | null>;
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

  private unchanged(entry: Entry<Credential>): boolean {
    return entry.changesOfTeamWhenRead === this.changesOf(entry.auth.team.id);
  }

  private forget(change: TeamChange): void {
    this.changesHeard++;
    if (change === "all") this.entries.clear();
    else this.changesPerTeam.set(change, this.changesOf(change) + 1);
  }
}

/** What a credential authenticates as: a key, or an install link; either belongs to one team. */
type Credential = KeyAuth | LinkAuth;

/** A credential as known from memory while the database does not answer: when it last confirmed it. */
export type Stale<T> = T & { staleSince?: number };

/** What a credential authenticates as (null: nothing): at once when it is kept, or when the database has answered. */
export type Known<T> = T | null | Promise<T | null>;

interface Entry<T> {
  auth: T;
  changesOfTeamWhenRead: number;
}
