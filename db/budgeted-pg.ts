import { DatabaseBusy, DatabaseStalled, isConnectionSetup, isLongWork, queryBudgetMs } from "./budget";
import { isServerFailure } from "./outage";
import { TEAM_CHANGES_CHANNEL } from "./team-changes";

/* eslint-disable @typescript-eslint/no-explicit-any -- node-postgres's overloads (and Neon's fork of them) are wrapped as they are. */
type Callback = (error: Error | undefined, ...results: any[]) => void;
type ClientClass = new (...args: any[]) => {
  query(...args: any[]): any;
  on(event: "error", listener: (error: Error) => void): unknown;
  connection?: { stream?: { destroy(): void } };
};
type PoolClass = new (...args: any[]) => { connect(...args: any[]): any };

/** A query or a wait for a connection that has had no answer this long makes the breaker ask the server. */
const SUSPECT_AFTER_MS = 1_000;
/** How long the probe's `select 1` (and its connecting) may take before the server is taken for away. */
export const PROBE_TIMEOUT_MS = 1_500;
/** While the server is away, how often the probe asks again; also the least time between two probes. */
const PROBE_EVERY_MS = 1_000;

/** Asks the server a trivial question on a connection of its own, within `ms`; rejects when it gets no answer. */
export type Probe = (ms: number) => Promise<void>;

/**
 * Whether the server answers (docs/outages.md#outages-and-stalls). A request that waits long — for its statement's answer,
 * or for a pooled connection — is not proof of anything: a busy server and a burst of requests look
 * the same from inside a request. So the breaker asks: a probe, on a connection outside the pool,
 * that no queue holds up. Only an unanswered probe opens it; while open, queries fail at once
 * (nothing waits for a server that is away), queries in flight and waits for a connection are told
 * at once, and the probe asks again every second; the first answer closes it.
 */
export class OutageBreaker {
  private away = false;
  private answeredAt = Date.now();
  private probing = false;
  private lastProbeAt = 0;
  private nextProbe: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly awayListeners = new Set<() => void>();

  constructor(private readonly probe: Probe) {}

  /** Whether the server was found away and has not answered since. */
  get isAway(): boolean {
    return this.away;
  }

  /** When the server last answered anything (ms since the epoch). */
  get lastAnsweredAt(): number {
    return this.answeredAt;
  }

  /** What a query's end says of the server: an answer, a failure worth a probe, or nothing (our own timeouts). */
  heard(error: unknown): void {
    // node-postgres calls back with null for no error, our own code with undefined.
    if (!error) return this.answered();
    const code = (error as { code?: unknown }).code;
    if (code === "DATABASE_STALLED" || code === "DATABASE_BUSY") return;
    if (isServerFailure(error)) return this.suspect();
    // The server refused this query (bad data, a bug): it answered.
    this.answered();
  }

  /** Something waits long or failed oddly: ask the server, unless a probe is under way or just answered. */
  suspect(): void {
    if (this.away || this.probing || this.stopped) return;
    if (Date.now() - this.lastProbeAt < PROBE_EVERY_MS) return;
    void this.runProbe();
  }

  /** Calls `listener` each time the server is found away; returns what unsubscribes it. */
  onAway(listener: () => void): () => void {
    this.awayListeners.add(listener);
    return () => this.awayListeners.delete(listener);
  }

  stop(): void {
    this.stopped = true;
    if (this.nextProbe) clearTimeout(this.nextProbe);
  }

  private answered(): void {
    this.answeredAt = Date.now();
    if (this.away) this.setAway(false);
  }

  /**
   * Asks the server now, and takes the answer as the breaker's (health asks this way): an answer
   * closes the breaker, none opens it. Rejects with the probe's error when there was no answer.
   */
  async check(): Promise<void> {
    this.probing = true;
    this.lastProbeAt = Date.now();
    try {
      await this.probe(PROBE_TIMEOUT_MS);
    } catch (error) {
      if (!this.away) this.setAway(true);
      this.probeAgainWhileAway();
      throw error;
    } finally {
      this.probing = false;
    }
    this.answered();
  }

  private async runProbe(): Promise<void> {
    await this.check().catch(() => {});
  }

  /** While the server is away, the next probe in a second (one chain of them: a probe already asked defers to it). */
  private probeAgainWhileAway(): void {
    if (!this.away || this.stopped || this.nextProbe) return;
    this.nextProbe = setTimeout(() => {
      this.nextProbe = null;
      void this.runProbe();
    }, PROBE_EVERY_MS);
    this.nextProbe.unref();
  }

  private setAway(away: boolean): void {
    this.away = away;
    if (away) for (const listener of [...this.awayListeners]) listener();
  }
}

/**
 * Runs `onTimeout` once `ms` have passed, but only after the I/O that arrived meanwhile was read: a
 * busy event loop fires timers late, and an answer that came in time must not lose to its timer.
 */
function timeoutAfterIo(ms: number, onTimeout: () => void): NodeJS.Timeout {
  const timer = setTimeout(() => setImmediate(onTimeout), Math.max(0, ms));
  timer.unref();
  return timer;
}

/** The error for a wait that ran out: the server is away, or it is busy answering others. */
function outOfTime(breaker: OutageBreaker, busy: string): Error {
  return breaker.isAway ? new DatabaseStalled("stopped answering (a probe got no answer)") : new DatabaseBusy(busy);
}

/**
 * Watches a wait on the server (a query's answer, a free connection) for at most `budget`: after
 * a second it makes the breaker ask the server; at the deadline, or as soon as the server is found
 * away, `giveUp` is called with why. Returns what ends the watch once the wait is over.
 */
function watchWait(breaker: OutageBreaker, budget: number, busy: string, giveUp: (why: Error) => void): () => void {
  const suspicion = setTimeout(() => breaker.suspect(), SUSPECT_AFTER_MS);
  suspicion.unref();
  const deadline = timeoutAfterIo(budget, () => giveUp(outOfTime(breaker, busy)));
  const unsubscribe = breaker.onAway(() => giveUp(new DatabaseStalled("stopped answering (a probe got no answer)")));
  return () => {
    clearTimeout(suspicion);
    clearTimeout(deadline);
    unsubscribe();
  };
}

/** A statement that changes a row whose trigger announces a team change (migrations 0020, 0024). */
const CHANGES_A_TEAM = /\b(update|delete\s+from)\s+"?(teams|api_keys|install_links)"?[\s(]/i;

function textOf(config: unknown): string {
  if (typeof config === "string") return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === "string" ? text : "";
}

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

export interface ClientHooks {
  /**
   * Behind a pooler in transaction mode, where a connection cannot hear its own transaction's
   * notices: called once a write that changed a team is committed, before the caller hears of it,
   * with what sends a token on the team-changes channel (TeamChangeFeed.caughtUp).
   */
  afterTeamChange?: (notify: (token: string) => Promise<unknown>) => Promise<void>;
}

/** Why a query is not sent at all, if it is not: the server is away, or the request has no time left. */
function refusalOf(breaker: OutageBreaker, budget: number): Error | null {
  if (!isConnectionSetup() && breaker.isAway) return new DatabaseStalled("is away: the last probe got no answer");
  if (budget <= 0) return new DatabaseBusy("the request had no time left for the database");
  return null;
}

/**
 * Sends one query (`run`) and delivers its end once: its answer, or — no answer within `budget`, or
 * the server found away meanwhile — an error, after which the connection is `cut`. A query that
 * waits long makes the breaker ask the server.
 */
function watched(
  breaker: OutageBreaker,
  budget: number,
  connection: { cut(why: Error): void; cutBy: Error | null },
  run: (settle: Callback) => void,
  deliver: Callback,
): void {
  let settled = false;
  const settle = (error: Error | undefined, result?: unknown) => {
    if (settled) return;
    settled = true;
    endWatch();
    // What fails on a connection we cut says nothing of the server.
    if (!connection.cutBy || !error) breaker.heard(error);
    deliver(error, result);
  };
  // The connection is ended (and given back to its pool as broken) before the caller hears: its
  // own errors, which come later, then find the query settled.
  const endWatch = watchWait(breaker, budget, `did not answer within the ${budget} ms left`, (error) => {
    connection.cut(error);
    settle(error);
  });
  run(settle);
}

/**
 * node-postgres's Client (or Neon's fork of it) that spends the budget of db/budget.ts: a query
 * that has no time left, or that would go to a server found away, is not sent; one that gets no
 * answer in time ends its connection. Either way the connection is ended, so nothing sent can
 * apply after the caller was told it failed (a transaction cut off before COMMIT rolls back) and
 * no connection goes back to the pool inside a transaction; the pool replaces it.
 */
export function budgetedClient<C extends ClientClass>(Base: C, breaker: OutageBreaker, longQueryMs: number, hooks: ClientHooks = {}): C {
  const { afterTeamChange } = hooks;
  return class BudgetedClient extends Base {
    /** Why we ended this connection: what fails on it afterwards says nothing of the server. */
    cutBy: Error | null = null;
    private readonly changes = afterTeamChange ? new TeamChangeTracker() : null;

    constructor(...args: any[]) {
      // The pool's options reach each client: its connect timeout goes by another name there, since
      // a pool's own `connectionTimeoutMillis` would also time the wait for a free connection.
      const [config] = args;
      super(config && typeof config === "object" ? { ...config, connectionTimeoutMillis: config.clientConnectTimeoutMs } : config);
      // A connection that fails between two queries (a server stopping) tells the next query; an
      // unheard "error" event would end the process instead.
      this.on("error", () => {});
    }

    /**
     * Ends the connection, and hands it back to its pool as broken at once: the pool replaces it,
     * and nothing waits for its holder to give it back — drizzle's transaction never releases a
     * connection whose BEGIN failed, and a pool short of one for good never ends (SIGTERM hangs).
     */
    cut(why: Error): void {
      if (this.cutBy) return;
      this.cutBy = why;
      this.connection?.stream?.destroy();
      const pooled = this as unknown as { release?: (error?: Error) => void };
      const release = pooled.release;
      if (typeof release !== "function") return;
      // Whoever holds it releases it afterwards too (drizzle's `finally`, a pool's query): once is enough.
      let released = false;
      pooled.release = () => {
        if (released) return;
        released = true;
        release.call(this, why);
      };
      pooled.release();
    }

    query(config: any, values?: any, callback?: any): any {
      if (typeof config?.submit === "function") return super.query(config, values, callback);
      if (typeof values === "function") [callback, values] = [values, undefined];
      const budget = queryBudgetMs(longQueryMs);
      // On a connection we ended, every statement (a transaction's ROLLBACK) fails as the one that ended it.
      const refusal = this.cutBy ?? refusalOf(breaker, budget);
      if (refusal) {
        this.cut(refusal);
        if (callback) return void process.nextTick(() => (callback as Callback)(refusal));
        return Promise.reject(refusal);
      }
      const commitsChange = this.changes?.commitsChange(textOf(config)) ?? false;
      const send = (deliver: Callback) =>
        watched(
          breaker,
          budget,
          this,
          (settle) => super.query(config, values, settle),
          commitsChange ? this.afterNotice(deliver) : deliver,
        );
      if (callback) return void send(callback as Callback);
      return new Promise((resolve, reject) => send((error, result) => (error ? reject(error) : resolve(result))));
    }

    /** Delivers a committed change to a team once this instance has heard it (`afterTeamChange`). */
    private afterNotice(deliver: Callback): Callback {
      return (error, result) => {
        if (error || !afterTeamChange) return deliver(error, result);
        const notify = (token: string) => super.query("select pg_notify($1, $2)", [TEAM_CHANGES_CHANNEL, token]);
        // The write is committed either way: a notice not heard in time is the TTL's to bound, not the caller's error.
        void afterTeamChange(notify)
          .catch(() => {})
          .then(() => deliver(undefined, result));
      };
    }
  };
}

/**
 * A pool whose wait for a connection is part of the same budget. A request that waits its whole
 * budget while the server answers others is told the database is busy (load); once the server is
 * found away, every waiter is told at once. A connection that arrives after its waiter gave up goes
 * back to the pool.
 */
export function budgetedPool<P extends PoolClass>(Base: P, breaker: OutageBreaker, longQueryMs: number, queueMs: number): P {
  return class BudgetedPool extends Base {
    connect(callback?: Callback): any {
      // Long work waits for a connection as long as for a statement; a request, at most `queueMs` of its deadline.
      const budget = isLongWork() ? queryBudgetMs(longQueryMs) : Math.min(queryBudgetMs(longQueryMs), queueMs);
      const connected = new Promise<{ release(error?: unknown): void }>((resolve, reject) => {
        if (breaker.isAway) return reject(new DatabaseStalled("is away: the last probe got no answer"));
        if (budget <= 0) return reject(new DatabaseBusy("the request had no time left for the database"));
        let settled = false;
        const settle = () => {
          settled = true;
          endWatch();
        };
        const giveUp = (error: Error) => {
          if (settled) return;
          settle();
          reject(error);
        };
        const endWatch = watchWait(breaker, budget, `no database connection came free within ${budget} ms`, giveUp);
        (super.connect() as Promise<{ release(error?: unknown): void }>).then(
          (client) => {
            if (settled) return client.release();
            settle();
            resolve(client);
          },
          (error: Error) => {
            breaker.heard(error);
            // Opening a connection failed: a refusal says so; a connect that timed out is the load's or the outage's.
            giveUp(isServerFailure(error) ? error : outOfTime(breaker, `could not open a database connection (${error.message})`));
          },
        );
      });
      if (!callback) return connected;
      connected.then(
        (client) => callback(undefined, client, (error?: unknown) => client.release(error)),
        (error: Error) => callback(error),
      );
    }
  };
}
