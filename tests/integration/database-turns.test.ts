import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { rowsOf } from "@/db/rows";
import { openTestDatabase, testDbKinds } from "../helpers/db";

/**
 * What waits on the event loop (a request that came in, a timer) runs while operations queue on
 * the database. On a server that is the network's doing; the embedded database runs in this
 * thread and answers on promises alone, so without db/pglite-turns.ts a queue of 20 operations was
 * drained before anything else ran (docs/hot-path.md).
 */
describe.each(testDbKinds)("operations queued on %s", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.execute(sql`create table turns_written (n int not null)`);
  });
  afterAll(() => database.close());

  it("let what waits on the event loop run before the last of 20 is done, each answered as alone, a failure its own", async () => {
    const { db } = database;
    let done = 0;
    let doneWhenAnswered = -1;
    setImmediate(() => (doneWhenAnswered = done));
    const counted = <T>(operation: Promise<T>) => operation.finally(() => void done++);

    const operations = Array.from({ length: 20 }, (_, n) => {
      if (n === 7) return counted(db.execute(sql`select * from no_such_table`));
      if (n % 3 === 0) {
        return counted(
          db.transaction(async (tx) => {
            await tx.execute(sql`insert into turns_written (n) values (${n})`);
            return rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from turns_written where n = ${n}`));
          }),
        );
      }
      if (n % 3 === 1) return counted(database.query<{ n: number }>("select $1::int as n", [n]));
      return counted(db.execute(sql`select ${n}::int as n`).then((result) => rowsOf<{ n: number }>(result)));
    });
    const outcomes = await Promise.allSettled(operations);

    expect(doneWhenAnswered).toBeGreaterThanOrEqual(0);
    expect(doneWhenAnswered).toBeLessThan(20);
    expect(done).toBe(20);
    const failed = outcomes.flatMap((outcome, n) => (outcome.status === "rejected" ? [n] : []));
    expect(failed).toEqual([7]);
    const rejected = outcomes[7] as PromiseRejectedResult;
    expect(String((rejected.reason as { cause?: unknown }).cause ?? rejected.reason)).toContain('relation "no_such_table" does not exist');
    for (const [n, outcome] of outcomes.entries()) {
      if (n === 7) continue;
      expect((outcome as PromiseFulfilledResult<{ n: number }[]>).value).toEqual([{ n: n % 3 === 0 ? 1 : n }]);
    }
    const written = rowsOf<{ n: number }>(await db.execute(sql`select n from turns_written order by n`));
    expect(written.map((row) => row.n)).toEqual([0, 3, 6, 9, 12, 15, 18]);
  });
});
