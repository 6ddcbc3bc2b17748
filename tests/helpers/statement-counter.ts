import { BudgetedPool, type BudgetedConnection } from "@/db/budgeted-pg";
import type { Db } from "@/db/client";

/**
 * Counts the statements an app sends its database while it runs, at the driver: PGlite's own
 * `query`, `exec` and `transaction` (one round trip each, as the process sees it), or, on a
 * server, each statement the app's pool sends — alone or on a connection it lends (a
 * transaction). The outage probe and the change listener use connections of their own and are not
 * counted: a probe asks because something waited, under load, not because of the path measured.
 * For asserting how often a path goes to the database, not how fast it is.
 */
export interface StatementCounter {
  readonly count: number;
  stop(): void;
}

type Counted = Record<string, (...args: unknown[]) => unknown>;

function countCalls(target: Counted, methods: string[], onCall: () => void): () => void {
  const originals = methods.map((method) => [method, target[method]!] as const);
  for (const [method, original] of originals) {
    target[method] = function (this: unknown, ...args: unknown[]) {
      onCall();
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [method, original] of originals) target[method] = original;
  };
}

export function countStatements(db: Db): StatementCounter {
  let count = 0;
  const client = (db as unknown as { $client: unknown }).$client;
  const restore =
    client instanceof BudgetedPool
      ? countPool(client, () => count++)
      : countCalls(client as Counted, ["query", "exec", "transaction"], () => count++);
  return {
    get count() {
      return count;
    },
    stop: restore,
  };
}

/** The statements on the connections the pool lends while counting (its own `query` borrows one too). */
function countPool(pool: BudgetedPool, onCall: () => void): () => void {
  const connect = pool.connect;
  pool.connect = async function (this: BudgetedPool) {
    const connection: BudgetedConnection = await connect.call(this);
    countCalls(connection as unknown as Counted, ["query"], onCall);
    return connection;
  };
  return () => {
    pool.connect = connect;
  };
}
