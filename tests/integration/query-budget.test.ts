import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asLongWork, withDeadline } from "@/db/budget";
import type { Database } from "@/db/client";
import { isDatabaseBusy, isDatabaseOutage } from "@/db/outage";
import { openTestDatabase } from "../helpers/db";
import { startFreezingProxy, type FreezingProxy } from "../helpers/freezing-proxy";
import { waitUntil } from "../helpers/wait";

/**
 * db/budget.ts and db/budgeted-pg.ts on a real server (issues 25 and 38). A request's statements
 * share one deadline, and one that outruns it ends its connection, so what it began rolls back;
 * long work gets its own allowance, anything else 4 s per query. Running out of time while the
 * server answers others is load (DatabaseBusy → 503 Overloaded), never an outage: only a probe the
 * server does not answer opens the breaker, and then everything waiting is told at once. PGlite,
 * in the process, has no budget: it cannot stall on its own.
 */

type Outcome = "answered" | "busy" | "away" | string;

async function outcome(work: Promise<unknown>): Promise<{ result: Outcome; ms: number }> {
  const started = Date.now();
  const result = await work.then(
    () => "answered",
    (error: unknown) => (isDatabaseBusy(error) ? "busy" : isDatabaseOutage(error) ? "away" : String(error)),
  );
  return { result, ms: Date.now() - started };
}

/** Waits until the server runs `count` of the test's `pg_sleep(2.5)`, asked on a connection outside the pool. */
async function sleepingOnServer(count: number): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await waitUntil(
      async () =>
        Number(
          (await admin.query("select count(*) as n from pg_stat_activity where state = 'active' and query = 'select pg_sleep(2.5)'"))
            .rows[0].n,
        ),
      (n) => n === count,
      { what: `${count} statements holding the pool's connections` },
    );
  } finally {
    await admin.end();
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)("query budgets on PostgreSQL", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase("postgres", { poolSize: 3, queueMs: 800 });
    await database.db.execute(sql`create table budget_probe (x int)`);
  });
  afterAll(async () => database?.close());

  const probeRows = async () => Number((await database.query<{ n: string }>("select count(*) as n from budget_probe", []))[0]?.n);

  it("gives a request's transaction up at its deadline and rolls back what it began; a slow statement is load, not an outage", async () => {
    const request = await outcome(
      withDeadline(1_000, () =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into budget_probe values (1)`);
          await tx.execute(sql`select pg_sleep(3)`);
        }),
      ),
    );
    expect(request.result).toBe("busy");
    // The server answered the probe the wait set off: nothing is refused after it.
    expect(database.health.away).toBe(false);
    expect((await outcome(database.query("select 1", []))).result).toBe("answered");
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the server's sleep ends, then it sees the connection gone
    expect(await probeRows()).toBe(0);
  });

  it("does not send a query of a request that has no time left, and says it is load", async () => {
    expect((await outcome(withDeadline(0, () => database.query("select 1", [])))).result).toBe("busy");
    // Said as what it is, not as a wait of 0 ms (issue 38).
    await expect(withDeadline(0, () => database.query("select 1", []))).rejects.toThrow(/^the request had no time left for the database$/);
    expect(database.health.away).toBe(false);
    expect((await outcome(database.query("select 1", []))).result).toBe("answered");
  });

  it("lets long work's statements run past a request's budget, and holds a query outside both to 4 s", async () => {
    // Drizzle's queries start when awaited: inside the work, so inside its budget.
    expect((await outcome(asLongWork(async () => await database.db.execute(sql`select pg_sleep(4.5)`)))).result).toBe("answered");
    const bare = await outcome(database.db.execute(sql`select pg_sleep(6)`));
    expect(bare.result).toBe("busy");
    expect(database.health.away).toBe(false);
  });

  it("answers a request that finds every connection taken 'busy' once its wait is spent, and keeps serving the rest", async () => {
    // Three long statements hold the pool's three connections.
    const holders = Array.from({ length: 3 }, () => asLongWork(async () => await database.db.execute(sql`select pg_sleep(2.5)`)));
    await sleepingOnServer(3);
    const waiters = await Promise.all(Array.from({ length: 16 }, () => outcome(withDeadline(4_000, () => database.query("select 1", [])))));
    expect(waiters.map((waiter) => waiter.result)).toEqual(Array(16).fill("busy"));
    await Promise.all(holders);
    expect(database.health.away).toBe(false);
    // Once the holders are done, the same burst is served: nothing was left refusing.
    const after = await Promise.all(Array.from({ length: 16 }, () => outcome(withDeadline(4_000, () => database.query("select 1", [])))));
    expect(after.map((waiter) => waiter.result)).toEqual(Array(16).fill("answered"));
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("a server that stops answering", () => {
  let proxy: FreezingProxy | undefined;
  afterEach(() => proxy?.thaw());
  afterAll(async () => proxy?.close());

  it("is found away by a probe, tells every query in flight and every waiter at once, refuses at once after, and comes back", async () => {
    const database = await openTestDatabase("postgres", {
      poolSize: 3,
      via: async (url) => {
        proxy = await startFreezingProxy(url);
        return proxy.url;
      },
    });
    await database.query("select 1", []);
    proxy = proxy!;
    proxy.freeze();
    // More than the pool holds: three send their query and get no answer, the rest wait for a connection.
    const frozen = await Promise.all(
      Array.from({ length: 16 }, () =>
        outcome(withDeadline(4_000, () => database.db.transaction(async (tx) => tx.execute(sql`select 1`)))),
      ),
    );
    expect(frozen.map((each) => each.result)).toEqual(Array(16).fill("away"));
    // Told by the probe (1 s of waiting, then 1.5 s for the probe), not by their own 4 s deadlines.
    expect(Math.max(...frozen.map((each) => each.ms))).toBeLessThan(3_900);
    expect(database.health.away).toBe(true);
    const next = await outcome(database.query("select 1", []));
    expect(next.result).toBe("away");
    expect(next.ms).toBeLessThan(100);
    proxy.thaw();
    await waitUntil(
      () => outcome(database.query("select 1", [])),
      (o) => o.result === "answered",
      { what: "the probe to find the server back", intervalMs: 200 },
    );
    expect(database.health.away).toBe(false);
    // Every connection cut meanwhile went back to the pool (a transaction whose BEGIN failed
    // included): closing waits for none, as SIGTERM needs.
    await database.close();
  });
});
