import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { withDeadline } from "@/db/budget";
import type { Database } from "@/db/client";
import { isDatabaseBusy, isDatabaseOutage } from "@/db/outage";
import { openTestDatabase } from "../helpers/db";
import { startFreezingProxy, type FreezingProxy } from "../helpers/freezing-proxy";
import { waitUntil } from "../helpers/wait";

/**
 * db/budgeted-pg.ts on a real server, what the outage tests take for granted: drizzle runs a
 * transaction on one connection of the budgeted pool (it tells a pool it did not make by its
 * class's name), and a connection cut by the budget or the breaker goes back to the pool at once —
 * one whose BEGIN got no answer included, which drizzle never gives back — so a pool of one is
 * never left short.
 */

const outcomeOf = (work: Promise<unknown>) =>
  work.then(
    () => "answered",
    (error: unknown) => (isDatabaseBusy(error) ? "busy" : isDatabaseOutage(error) ? "away" : String(error)),
  );

describe.runIf(process.env.TEST_DATABASE_URL)("the budgeted pool on PostgreSQL", () => {
  let database: Database | undefined;
  let proxy: FreezingProxy | undefined;
  afterEach(async () => {
    proxy?.thaw();
    await database?.close();
    database = undefined;
  });
  afterAll(async () => proxy?.close());

  it("runs a drizzle transaction on a connection of its own, and everything else on another", async () => {
    database = await openTestDatabase("postgres", { poolSize: 2 });
    const db = database;
    const txid = sql`select txid_current()::text as id`;
    const idOf = (result: unknown) => (result as { rows: { id: string }[] }).rows[0]!.id;
    const [inside, again, outside] = await db.db.transaction(async (tx) => [
      idOf(await tx.execute(txid)),
      idOf(await tx.execute(txid)),
      // Not in the transaction: were its connection back in the pool, this would run inside it.
      (await db.query<{ id: string }>("select txid_current()::text as id", []))[0]!.id,
    ]);
    expect(again).toBe(inside);
    expect(outside).not.toBe(inside);
  });

  it("gives a connection cut at its deadline back at once: a pool of one serves the next request, and nothing cut applies", async () => {
    database = await openTestDatabase("postgres", { poolSize: 1, queueMs: 500 });
    await database.db.execute(sql`create table pool_probe (x int)`);
    for (let i = 0; i < 3; i++) {
      const db = database;
      const cut = withDeadline(300, () =>
        db.db.transaction(async (tx) => {
          await tx.execute(sql`insert into pool_probe values (1)`);
          await tx.execute(sql`select pg_sleep(1.5)`);
        }),
      );
      expect(await outcomeOf(cut)).toBe("busy");
      const started = Date.now();
      expect(await withDeadline(4_000, () => db.query<{ n: number }>("select 1 as n", []))).toEqual([{ n: 1 }]);
      // Within the queue's bound: the cut connection did not hold the pool's one place.
      expect(Date.now() - started).toBeLessThan(500);
    }
    // The server's sleeps end, then it finds their connections gone and rolls back.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await database.query<{ n: number }>("select count(*)::int as n from pool_probe", [])).toEqual([{ n: 0 }]);
  });

  it("gives back the connection of a transaction whose BEGIN got no answer: once the server is back, a pool of one serves", async () => {
    database = await openTestDatabase("postgres", {
      poolSize: 1,
      queueMs: 500,
      via: async (url) => {
        proxy = await startFreezingProxy(url);
        return proxy.url;
      },
    });
    const db = database;
    await db.query("select 1", []);
    proxy!.freeze();
    expect(await outcomeOf(withDeadline(4_000, () => db.db.transaction(async (tx) => tx.execute(sql`select 1`))))).toBe("away");
    proxy!.thaw();
    await waitUntil(
      () => outcomeOf(db.query("select 1", [])),
      (outcome) => outcome !== "away",
      { what: "the probe to find the server back", intervalMs: 100 },
    );
    expect(await outcomeOf(withDeadline(4_000, () => db.query("select 1", [])))).toBe("answered");
  });
});
