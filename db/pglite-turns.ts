import { setImmediate as nextTurn } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";

/*
 * PGlite runs in the server's own thread and hands its lock from one waiting operation to the next
 * on promises alone, so a queue of operations drains without the event loop getting a turn: no
 * request is answered and no timer fires until the last is done. Here each top-level operation
 * waits behind the one before it, and then for a turn of the event loop, so whatever came in
 * meanwhile is answered between two operations. A transaction is one operation: its statements go
 * through the transaction, not through these. docs/hot-path.md ("Every operation on the embedded
 * database takes its turn").
 */

type Operation = "query" | "exec" | "transaction";
const OPERATIONS: Operation[] = ["query", "exec", "transaction"];
const turning = new WeakSet<PGlite>();

/**
 * Makes `client`'s operations take turns, in place: on the instance, once it is ready (PGlite's own
 * start-up runs statements that must not wait on it), so whatever wraps the client later (a test's
 * statement counter) wraps this.
 */
export function takeTurns(client: PGlite): void {
  // Once per instance: twice, each operation would queue behind itself (an instance handed from one
  // database to the next, tests/helpers/db.ts).
  if (turning.has(client)) return;
  turning.add(client);
  let last: Promise<unknown> = Promise.resolve();
  for (const name of OPERATIONS) {
    const operation = client[name].bind(client) as (...args: unknown[]) => Promise<unknown>;
    const inTurn = (...args: unknown[]) => {
      const result = last.then(() => nextTurn()).then(() => operation(...args));
      last = result.catch(() => {});
      return result;
    };
    Object.assign(client, { [name]: inTurn });
  }
}
