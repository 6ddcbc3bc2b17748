import { isUnanswered } from "@/db/outage";
import { eq, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "@/db/client";
import { rateLimits } from "@/db/schema";

/** The most an instance claims of a window at once: a twentieth of it. */
const CHUNKS_PER_WINDOW = 20;

/**
 * A key's window as one request left it, which the X-RateLimit-* headers say
 * (lib/http/rate-limit-headers.ts; docs/decisions/rate-limit-headers.md).
 */
export interface RateLimitState {
  /** Whether this request was admitted. */
  admitted: boolean;
  /** Requests a window admits. */
  limit: number;
  /** Requests the window still admits after this one, as this instance knows it; 0 when refused. */
  remaining: number;
  /** Whole seconds, at least 1, until the window ends and a new one admits the whole limit: the Retry-After of a refusal. */
  resetSeconds: number;
}

/** What an instance may still spend of a key's current window without asking the database. */
interface Lease {
  left: number;
  /** What the window had given out, to every instance, once this instance's last claim was granted. */
  claimed: number;
  /** When the window ends, by this instance's clock. */
  endsAt: number;
  /** The window's whole allowance is claimed: refuse until it ends, without asking again. */
  spent: boolean;
  /** How much the next claim asks for: doubled after each claim while this instance keeps needing more. */
  nextClaim: number;
}

/**
 * Requests per window per API key (or install link, or address), shared by every instance on the
 * database (issue 14). A window starts at a key's first request and lasts a minute (keys, links)
 * or an hour (client registrations per address, issue 38), as in-memory limiters do. Each
 * instance claims the window's allowance from the key's row in chunks and spends them from
 * memory, so only one request in a chunk waits on the database. A chunk starts at one request and
 * doubles while the instance keeps needing more, up to a twentieth of the limit: a busy key costs a
 * few claims a minute, and many short-lived instances (serverless) hold back little they do not
 * use. The limit is never exceeded across instances; a key may be refused early by what other
 * instances claimed and did not spend — at most a chunk each (docs/decisions/rate-limiter.md).
 */
export class SharedRateLimit {
  private readonly leases = new LRUCache<string, Lease>({ max: 100_000 });
  /** Windows counted by this instance alone, while the database is away. */
  private readonly alone = new LRUCache<string, { endsAt: number; used: number }>({ max: 100_000 });
  /** One claim per key at a time from this instance: concurrent requests wait for it. */
  private readonly claims = new Map<string, Promise<Lease>>();
  private readonly chunk: number;
  private readonly windowMs: number;

  constructor(
    private readonly db: Db,
    /** Requests a window admits. */
    readonly limit: number,
    private readonly windowSeconds = 60,
  ) {
    this.chunk = Math.max(1, Math.ceil(limit / CHUNKS_PER_WINDOW));
    this.windowMs = windowSeconds * 1000;
  }

  /**
   * Spends one request of `who`'s window, if it has one left, and says what is left. While the
   * database is away this instance counts alone, with the whole limit: agents reading from memory
   * stay limited, and no instance can tell another what it spent.
   */
  take(who: string): RateLimitState | Promise<RateLimitState> {
    // What this instance holds of the window answers at once: only a claim waits (docs/hot-path.md).
    return this.fromLease(who) ?? this.takeClaiming(who);
  }

  private async takeClaiming(who: string): Promise<RateLimitState> {
    try {
      return await this.takeShared(who);
    } catch (error) {
      if (!isUnanswered(error)) throw error;
      return this.takeAlone(who);
    }
  }

  /** One request from the lease this instance holds of `who`'s current window; null when it must claim first. */
  private fromLease(who: string): RateLimitState | null {
    const lease = this.leases.get(who);
    if (!lease || Date.now() >= lease.endsAt) return null;
    if (lease.left > 0) {
      lease.left--;
      // What no instance had claimed at this instance's last claim, and what this one holds unspent:
      // exact with one instance; with several, others may have claimed since, and what they hold
      // unspent is not counted (docs/decisions/rate-limit-headers.md).
      return this.state(true, this.limit - lease.claimed + lease.left, lease.endsAt);
    }
    return lease.spent ? this.state(false, 0, lease.endsAt) : null;
  }

  private takeAlone(who: string): RateLimitState {
    let window = this.alone.get(who);
    if (!window || Date.now() >= window.endsAt) {
      window = { endsAt: Date.now() + this.windowMs, used: 0 };
      this.alone.set(who, window);
    }
    if (window.used < this.limit) {
      window.used++;
      return this.state(true, this.limit - window.used, window.endsAt);
    }
    return this.state(false, 0, window.endsAt);
  }

  private async takeShared(who: string): Promise<RateLimitState> {
    for (;;) {
      const lease = this.leases.get(who);
      // No lease for the current window, or this instance spent its chunk: claim, then try again.
      if (!lease || Date.now() >= lease.endsAt || (lease.left === 0 && !lease.spent)) await this.claimOnce(who);
      const taken = this.fromLease(who);
      if (taken) return taken;
    }
  }

  private state(admitted: boolean, remaining: number, endsAt: number): RateLimitState {
    return {
      admitted,
      limit: this.limit,
      remaining: Math.min(this.limit, Math.max(0, remaining)),
      resetSeconds: Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)),
    };
  }

  private claimOnce(who: string): Promise<Lease> {
    let pending = this.claims.get(who);
    if (!pending) {
      pending = this.claim(who).finally(() => this.claims.delete(who));
      this.claims.set(who, pending);
    }
    return pending;
  }

  /** Takes up to a chunk of the key's current window (a new window when the last one ended), by the database's clock. */
  private async claim(who: string): Promise<Lease> {
    const size = Math.min(this.chunk, this.leases.get(who)?.nextClaim ?? 1);
    const { granted, claimed, msLeft } = await this.db.transaction(async (tx) => {
      await tx
        .insert(rateLimits)
        .values({ key: who, windowStart: sql`clock_timestamp()`, used: 0 })
        .onConflictDoNothing();
      const window = sql`${this.windowSeconds}::int * interval '1 second'`;
      const [row] = await tx
        .select({
          ended: sql<boolean>`${rateLimits.windowStart} <= clock_timestamp() - ${window}`,
          used: rateLimits.used,
          msLeft: sql<number>`extract(epoch from (${rateLimits.windowStart} + ${window} - clock_timestamp())) * 1000`.mapWith(Number),
        })
        .from(rateLimits)
        .where(eq(rateLimits.key, who))
        .for("update");
      if (!row) throw new Error(`the rate-limit row of ${who} was just made sure of, yet is not there`);
      const used = row.ended ? 0 : row.used;
      const take = Math.max(0, Math.min(size, this.limit - used));
      await tx
        .update(rateLimits)
        .set(row.ended ? { windowStart: sql`clock_timestamp()`, used: take } : { used: used + take })
        .where(eq(rateLimits.key, who));
      return { granted: take, claimed: used + take, msLeft: row.ended ? this.windowMs : Math.max(0, row.msLeft) };
    });
    const lease = {
      left: granted,
      claimed,
      endsAt: Date.now() + msLeft,
      spent: granted === 0,
      nextClaim: Math.min(this.chunk, size * 2),
    };
    this.leases.set(who, lease);
    return lease;
  }
}
