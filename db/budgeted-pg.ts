import { DatabaseStalled, isConnectionSetup, queryBudgetMs } from "./budget";
import { isDatabaseOutage } from "./outage";

/* eslint-disable @typescript-eslint/no-explicit-any -- node-postgres's overloads (and Neon's fork of them) are wrapped as they are. */
type Callback = (error: Error | undefined, ...results: any[]) => void;
type ClientClass = new (...args: any[]) => {
  query(...args: any[]): any;
  on(event: "error", listener: (error: Error) => void): unknown;
  connection?: { stream?: { destroy(): void } };
};
type PoolClass = new (...args: any[]) => { connect(...args: any[]): any };

/** While the server is away, how often one query is let through to see whether it is back. */
const TRIAL_EVERY_MS = 1_000;

/**
 * Whether the server answers. Once a query found it away (stalled, refused, cut off), queries
 * fail at once, but for one trial a second: a stalled database then costs each request nothing
 * instead of its whole budget, and the first trial that gets an answer lets everything through.
 */
export class OutageBreaker {
  private down = false;
  private nextTrialAt = 0;

  /** Whether a query may go to the server now. */
  admits(): boolean {
    if (!this.down) return true;
    const now = Date.now();
    if (now < this.nextTrialAt) return false;
    this.nextTrialAt = now + TRIAL_EVERY_MS;
    return true;
  }

  /** Whether a query would be let through now, without taking the trial: a connection is not opened for nothing. */
  wouldAdmit(): boolean {
    return !this.down || Date.now() >= this.nextTrialAt;
  }

  /** What a query's end says of the server: an answer, or an outage (any other error says nothing). */
  heard(error: unknown): void {
    // node-postgres calls back with null for no error, our own code with undefined.
    if (!error) this.down = false;
    else if (isDatabaseOutage(error) && !this.down) {
      this.down = true;
      this.nextTrialAt = Date.now() + TRIAL_EVERY_MS;
    }
  }
}

/**
 * node-postgres's Client (or Neon's fork of it) that spends the budget of db/budget.ts: a query
 * that has no time left (or that the breaker holds back) is not sent, and one the server does not
 * answer in time ends its connection. Either way the connection is ended, so nothing sent can
 * apply after the caller was told it failed (a transaction cut off before COMMIT rolls back) and
 * no connection goes back to the pool inside a transaction; the pool replaces it.
 */
export function budgetedClient<C extends ClientClass>(Base: C, breaker: OutageBreaker, longQueryMs: number): C {
  return class BudgetedClient extends Base {
    constructor(...args: any[]) {
      super(...args);
      // A connection that fails between two queries (a server stopping) tells the next query; an
      // unheard "error" event would end the process instead.
      this.on("error", () => {});
    }

    query(config: any, values?: any, callback?: any): any {
      if (typeof config?.submit === "function") return super.query(config, values, callback);
      if (typeof values === "function") [callback, values] = [values, undefined];
      const budget = queryBudgetMs(longQueryMs);
      if (budget <= 0 || (!isConnectionSetup() && !breaker.admits())) {
        this.connection?.stream?.destroy();
        const error = new DatabaseStalled(Math.max(0, budget));
        if (callback) return void process.nextTick(() => (callback as Callback)(error));
        return Promise.reject(error);
      }
      const send = (deliver: Callback) => {
        let settled = false;
        const settle = (error: Error | undefined, result?: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          breaker.heard(error);
          deliver(error, result);
        };
        // The caller hears of the stall first, then the connection ends: its own error then finds
        // the query settled (and a pool's query its client released).
        const timer = setTimeout(() => {
          settle(new DatabaseStalled(budget));
          this.connection?.stream?.destroy();
        }, budget);
        timer.unref();
        super.query(config, values, settle);
      };
      if (callback) return void send(callback as Callback);
      return new Promise((resolve, reject) => send((error, result) => (error ? reject(error) : resolve(result))));
    }
  };
}

/**
 * A pool whose wait for a connection is part of the same budget: with every connection held by
 * a stalled query, a request gives up when its deadline comes instead of waiting in the queue. A
 * connection that arrives after its waiter gave up goes back to the pool.
 */
export function budgetedPool<P extends PoolClass>(Base: P, breaker: OutageBreaker, longQueryMs: number): P {
  return class BudgetedPool extends Base {
    connect(callback?: Callback): any {
      const budget = queryBudgetMs(longQueryMs);
      // While the server is away no connection is handed out (nor opened) but at a trial's time.
      const pending = (breaker.wouldAdmit() ? super.connect() : Promise.reject(new DatabaseStalled(0))) as Promise<{
        release(error?: unknown): void;
      }>;
      const connected = new Promise<{ release(error?: unknown): void }>((resolve, reject) => {
        let gaveUp = false;
        const timer = setTimeout(
          () => {
            gaveUp = true;
            const error = new DatabaseStalled(Math.max(0, budget));
            // Waiting in vain says the server is away; a request that had no time left says nothing of it.
            if (budget > 0) breaker.heard(error);
            reject(error);
          },
          Math.max(0, budget),
        );
        timer.unref();
        pending.then(
          (client) => {
            clearTimeout(timer);
            if (gaveUp) client.release();
            else resolve(client);
          },
          (error: Error) => {
            clearTimeout(timer);
            breaker.heard(error);
            reject(error);
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
