import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asLongWork, DatabaseStalled, withDeadline } from "@/db/budget";
import type { Database } from "@/db/client";
import { isDatabaseOutage } from "@/db/outage";
import { openTestDatabase } from "../helpers/db";
import { waitUntil } from "../helpers/wait";

/**
 * db/budget.ts on a real server (issue 25): a request's statements share one deadline and one
 * that outruns it ends its connection, so what it began rolls back; once the server was found
 * away, queries fail at once but for one trial a second; long work gets its own allowance, and
 * anything else 4 s per query. PGlite, in the process, has no budget: it cannot stall on its own.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("query budgets on PostgreSQL", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    await database.db.execute(sql`create table budget_probe (x int)`);
  });
  afterAll(async () => database?.close());

  async function outcome(work: Promise<unknown>): Promise<{ result: string; ms: number }> {
    const started = Date.now();
    const result = await work.then(
      () => "answered",
      (error: unknown) => (stalled(error) && isDatabaseOutage(error) ? "stalled" : String(error)),
    );
    return { result, ms: Date.now() - started };
  }

  /** Drizzle wraps the driver's error (and a failed transaction's rollback's) in its own: the stall is in the chain. */
  function stalled(error: unknown): boolean {
    for (let e = error; e; e = (e as { cause?: unknown }).cause) if (e instanceof DatabaseStalled) return true;
    return false;
  }

  const probeRows = async () => Number((await database.query<{ n: string }>("select count(*) as n from budget_probe", []))[0]?.n);

  it("gives a request's transaction up at its deadline, rolls back what it began, and fails fast until a trial gets through", async () => {
    const request = await outcome(
      withDeadline(1_000, () =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into budget_probe values (1)`);
          await tx.execute(sql`select pg_sleep(3)`);
        }),
      ),
    );
    expect(request.result).toBe("stalled");
    expect(request.ms).toBeLessThan(2_000);
    // The breaker: the next query does not wait for the server.
    const next = await outcome(database.query("select 1", []));
    expect(next.result).toBe("stalled");
    expect(next.ms).toBeLessThan(200);
    // A trial a second: once one is answered, everything goes through; the insert never applied.
    await waitUntil(
      () => outcome(database.query("select 1", [])),
      (o) => o.result === "answered",
      {
        what: "a trial query to be answered",
        intervalMs: 200,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the server's sleep ends, then it sees the connection gone
    expect(await probeRows()).toBe(0);
  });

  it("does not take a request that had no time left for a server that is away", async () => {
    expect((await outcome(withDeadline(0, () => database.query("select 1", [])))).result).toBe("stalled");
    const next = await outcome(database.query("select 1", []));
    expect(next.result).toBe("answered");
  });

  it("lets long work's statements run past a request's budget, and holds a query outside both to 4 s", async () => {
    // Drizzle's queries start when awaited: inside the work, so inside its budget.
    expect((await outcome(asLongWork(async () => await database.db.execute(sql`select pg_sleep(4.5)`)))).result).toBe("answered");
    const bare = await outcome(database.db.execute(sql`select pg_sleep(6)`));
    expect(bare.result).toBe("stalled");
    expect(bare.ms).toBeLessThan(5_000);
  });
});
