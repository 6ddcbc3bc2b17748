import pg from "pg";
import { BudgetedPool } from "@/db/budgeted-pg";
import type { Db } from "@/db/client";

/**
 * Counts the statements an app sends its database while it runs, at the driver: PGlite's own
 * `query`, `exec` and `transaction` (one round trip each, as the process sees it), or every
 * `query` of a node-postgres connection (the app's pool, its listener and its probe alike). For
 * asserting how often a path goes to the database, not how fast it is.
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
  const isPool = client instanceof BudgetedPool;
  const restore = isPool
    ? countCalls(pg.Client.prototype as unknown as Counted, ["query"], () => count++)
    : countCalls(client as Counted, ["query", "exec", "transaction"], () => count++);
  return {
    get count() {
      return count;
    },
    stop: restore,
  };
}
