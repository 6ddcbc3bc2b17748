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
  /** What was sent, in order (a transaction on PGlite as `transaction`): what a failed count shows. */
  readonly statements: readonly string[];
  stop(): void;
}

type Counted = Record<string, (...args: unknown[]) => unknown>;

/** A statement as sent: its text, or a query config's; `method` for a transaction's callback. */
function describeCall(method: string, first: unknown): string {
  const text = typeof first === "string" ? first : (first as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text.replace(/\s+/g, " ").trim().slice(0, 200) : method;
}

function countCalls(target: Counted, methods: string[], onCall: (statement: string) => void): () => void {
  const originals = methods.map((method) => [method, target[method]!] as const);
  for (const [method, original] of originals) {
    target[method] = function (this: unknown, ...args: unknown[]) {
      onCall(describeCall(method, args[0]));
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [method, original] of originals) target[method] = original;
  };
}

export function countStatements(db: Db): StatementCounter {
  const statements: string[] = [];
  const sent = (statement: string) => void statements.push(statement);
  const client = (db as unknown as { $client: unknown }).$client;
  const restore =
    client instanceof BudgetedPool ? countPool(client, sent) : countCalls(client as Counted, ["query", "exec", "transaction"], sent);
  return {
    get count() {
      return statements.length;
    },
    statements,
    stop: restore,
  };
}

/** The statements on the connections the pool lends while counting (its own `query` borrows one too). */
function countPool(pool: BudgetedPool, onCall: (statement: string) => void): () => void {
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
