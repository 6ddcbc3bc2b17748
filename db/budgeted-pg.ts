import type { QueryArrayConfig, QueryConfig, QueryResult } from "pg";
import type { OutageBreaker } from "./breaker";
import { isLongWork, outOfTime, queryBudgetMs, refusal } from "./budget";
import { isServerFailure } from "./outage";
import { TEAM_CHANGES_CHANNEL } from "./team-changes";

/**
 * The database budget (db/budget.ts) and the outage breaker (db/breaker.ts) around node-postgres's
 * pool, by composition: pg's own pool and connections underneath, used through their public API
 * (docs/decisions/database-wrapper.md). Drizzle and `Database.query` go through `BudgetedPool`;
 * a transaction gets a `BudgetedConnection` and gives it back.
 */

/** A statement as drizzle and `Database.query` send it. */
export type Statement = string | QueryConfig | QueryArrayConfig;

/** What the budget uses of a pooled connection: node-postgres's `PoolClient` (Neon's has the same API). */
export interface PooledClient {
  query(statement: Statement, values?: unknown[]): Promise<QueryResult>;
  /** Gives it back; with an error, the pool ends it (at once if a statement is unanswered on it) and opens another. */
  release(error?: Error): void;
}

/** What the budget uses of node-postgres's pool (or Neon's). */
export interface DriverPool {
  connect(): Promise<PooledClient>;
}

export interface BudgetSettings {
  breaker: OutageBreaker;
  /** What a statement of long work may take: a little more than the server's statement timeout. */
  longQueryMs: number;
  /** How long a request waits for a free connection, within its deadline. */
  queueMs: number;
  /**
   * Behind a pooler in transaction mode, where a connection cannot hear its own transaction's
   * notices: called once a write that changed a team is committed, before the caller hears of it,
   * with what sends a token on the team-changes channel (TeamChangeFeed.caughtUp).
   */
  afterTeamChange?: (notify: (token: string) => Promise<unknown>) => Promise<unknown>;
}

/** A wait on the server that has had no answer this long makes the breaker ask the server. */
const SUSPECT_AFTER_MS = 1_000;

/**
 * Runs `onTimeout` once `ms` have passed, but only after the I/O that arrived meanwhile was read: a
 * busy event loop fires timers late, and an answer that came in time must not lose to its timer
 * (which pg's own `query_timeout`, a plain timer, would let happen under a burst).
 */
function timeoutAfterIo(ms: number, onTimeout: () => void): NodeJS.Timeout {
  const timer = setTimeout(() => setImmediate(onTimeout), Math.max(0, ms));
  timer.unref();
  return timer;
}

/**
 * `work`'s outcome, unless the server is found away first or `budget` runs out (then `giveUp` is
 * called with why, before the caller hears it); after a second without an answer the breaker asks
 * the server. What `work` brings after that goes to `late`.
 */
function withinBudget<T>(
  breaker: OutageBreaker,
  budget: number,
  busy: string,
  work: Promise<T>,
  handlers: { giveUp?: (why: Error) => void; late?: (value: T) => void },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const stop = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(suspicion);
      clearTimeout(deadline);
      unsubscribe();
      return true;
    };
    const giveUp = (why: Error) => {
      if (!stop()) return;
      handlers.giveUp?.(why);
      reject(why);
    };
    const suspicion = setTimeout(() => breaker.suspect(), SUSPECT_AFTER_MS);
    suspicion.unref();
    const deadline = timeoutAfterIo(budget, () => giveUp(outOfTime(breaker.isAway, busy)));
    const unsubscribe = breaker.onAway(() => giveUp(outOfTime(true, busy)));
    work.then(
      (value) => {
        if (stop()) resolve(value);
        else handlers.late?.(value);
      },
      (error: unknown) => {
        if (stop()) reject(error);
      },
    );
  });
}

/**
 * The pool drizzle and `Database.query` use: a statement that would go to a server found away, or
 * that has no time left, is not sent; a wait for a connection or an answer that outruns the budget
 * ends in `DatabaseBusy` (load), or in `DatabaseStalled` as soon as the breaker finds the server
 * away. Drizzle runs a transaction on `connect()`'s connection when its client's class is named
 * like a pool (node-postgres's driver checks `instanceof pg.Pool`, then the name).
 */
export class BudgetedPool {
  /** Connections lent out and not given back: closing cuts those still out after a moment. */
  private readonly lent = new Set<BudgetedConnection>();

  constructor(
    private readonly pool: DriverPool,
    private readonly settings: BudgetSettings,
  ) {}

  /** One statement on a connection of its own. */
  async query(statement: Statement, values?: unknown[]): Promise<QueryResult> {
    const connection = await this.connect();
    try {
      return await connection.query(statement, values);
    } finally {
      connection.release();
    }
  }

  /**
   * A connection, within the budget: a request waits for one at most `queueMs` of what is left of
   * its deadline, then is told the database is busy; long work, as long as the pool's own
   * `connectionTimeoutMillis` lets it. A connection that comes after its waiter gave up goes back.
   */
  async connect(): Promise<BudgetedConnection> {
    const { breaker, longQueryMs, queueMs } = this.settings;
    const budget = isLongWork() ? queryBudgetMs(longQueryMs) : Math.min(queryBudgetMs(longQueryMs), queueMs);
    const refused = refusal(breaker.isAway, budget);
    if (refused) throw refused;
    const connecting = this.pool.connect().catch((error: Error) => {
      // A refused or reset connection is worth a probe; the pool's own timeout is the load's or the outage's.
      if (!isServerFailure(error)) throw outOfTime(breaker.isAway, `the pool gave no connection (${error.message})`);
      breaker.heard(error);
      throw error;
    });
    const client = await withinBudget(breaker, budget, `no database connection came free within ${budget} ms`, connecting, {
      late: (late) => late.release(),
    });
    const connection = new BudgetedConnection(client, this.settings, () => this.lent.delete(connection));
    this.lent.add(connection);
    return connection;
  }

  /** Cuts every connection still lent out: closing does not wait for holders that never give theirs back. */
  cutAll(why: Error): void {
    for (const connection of this.lent) connection.cut(why);
  }
}
// Drizzle tells a pool it did not make by its class's name; minifying must not take the name away.
Object.defineProperty(BudgetedPool, "name", { value: "BudgetedPool" });

/**
 * One pooled connection, lent to a transaction (or to one statement). Each statement spends the
 * budget of the work it belongs to; one that gets no answer in time ends the connection. Either
 * way nothing sent can apply after the caller was told it failed (a transaction cut off before
 * COMMIT rolls back), and no connection goes back to the pool inside a transaction.
 */
export class BudgetedConnection {
  /** Why the connection was cut: every later statement on it (drizzle's ROLLBACK) fails the same way. */
  private cutBy: Error | null = null;
  private released = false;
  private readonly changes: TeamChangeTracker | null;

  constructor(
    private readonly client: PooledClient,
    private readonly settings: BudgetSettings,
    private readonly onRelease: () => void,
  ) {
    this.changes = settings.afterTeamChange ? new TeamChangeTracker() : null;
  }

  async query(statement: Statement, values?: unknown[]): Promise<QueryResult> {
    const { breaker, longQueryMs, afterTeamChange } = this.settings;
    const budget = queryBudgetMs(longQueryMs);
    const refused = this.cutBy ?? refusal(breaker.isAway, budget);
    if (refused) {
      this.cut(refused);
      throw refused;
    }
    const commitsChange = this.changes?.commitsChange(typeof statement === "string" ? statement : statement.text) ?? false;
    let result: QueryResult;
    try {
      result = await withinBudget(breaker, budget, `did not answer within the ${budget} ms left`, this.client.query(statement, values), {
        giveUp: (why) => this.cut(why),
      });
    } catch (error) {
      // What fails on a connection we cut says nothing of the server.
      if (this.cutBy) throw this.cutBy;
      breaker.heard(error);
      // A connection the server dropped is given back at once: drizzle never releases one whose BEGIN failed.
      if (error instanceof Error && isServerFailure(error)) this.cut(error);
      throw error;
    }
    breaker.heard(null);
    if (commitsChange && afterTeamChange) {
      const notify = (token: string) => this.client.query("select pg_notify($1, $2)", [TEAM_CHANGES_CHANNEL, token]);
      // The write is committed either way: a notice not heard in time is the TTL's to bound, not the caller's error.
      await afterTeamChange(notify).catch(() => {});
    }
    return result;
  }

  /** Gives the connection back to its pool, once, whoever asks (drizzle's `finally`, a cut). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
    this.client.release(this.cutBy ?? undefined);
  }

  /**
   * Ends the connection: given back to its pool with `why`, the pool ends it — at once if a
   * statement is unanswered on it — and opens another when needed. Nothing waits for its holder to
   * give it back: drizzle's transaction never releases a connection whose BEGIN failed, and a pool
   * short of one for good never ends (SIGTERM hangs).
   */
  cut(why: Error): void {
    if (this.cutBy) return;
    this.cutBy = why;
    this.release();
  }
}

/** A statement that changes a row whose trigger announces a team change (migrations 0020, 0024). */
const CHANGES_A_TEAM = /\b(update|delete\s+from)\s+"?(teams|api_keys|install_links)"?[\s(]/i;

/** Follows one connection's transactions, to tell which statement commits a change to a team. */
class TeamChangeTracker {
  private inTransaction = false;
  private changedTeam = false;

  /** Whether `text`, once it succeeds, has committed a change to a team. */
  commitsChange(text: string): boolean {
    if (/^\s*begin\b/i.test(text)) {
      this.inTransaction = true;
      this.changedTeam = false;
      return false;
    }
    if (/^\s*(commit|rollback|end)\b/i.test(text)) {
      const committed = this.changedTeam && !/^\s*rollback\b/i.test(text);
      this.inTransaction = false;
      this.changedTeam = false;
      return committed;
    }
    if (!CHANGES_A_TEAM.test(text)) return false;
    if (this.inTransaction) this.changedTeam = true;
    return !this.inTransaction;
  }
}
