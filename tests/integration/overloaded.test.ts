import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { asLongWork } from "@/db/budget";
import { changesHeard, errorOf, useTestApp } from "../helpers/app";
import { skillMd } from "../helpers/skills";
import { waitUntil } from "../helpers/wait";

/**
 * Load is not an outage (docs/outages.md#load-is-not-an-outage; issue 38), over HTTP: with every pooled connection busy, a
 * request that needs the database waits its turn for at most the queue's bound, then answers 503
 * `Overloaded` with `Retry-After: 1`; health, asked on a connection of its own, says the database
 * is up; what the instance already holds is served as usual, unmarked; nothing opens the breaker,
 * and once the connections are free the same request is served. On PostgreSQL only: PGlite answers
 * one query at a time inside the process, with no pool to wait for.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("every pooled connection busy on PostgreSQL", () => {
  const t = useTestApp("postgres", { databasePool: { poolSize: 2, queueMs: 500 } });

  it("answers what needs the database 503 Overloaded past the queue's bound, the rest as usual, and opens nothing", async () => {
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "steady/SKILL.md", content: skillMd("steady", "Steady. Use when the pool is busy.") }] },
    });
    expect(sync.status).toBe(200);
    await changesHeard(t.app);
    const listing = await (await t.call("GET", "/api/v1/listing")).text();

    // Two long statements hold the pool's two connections.
    const holders = Array.from({ length: 2 }, () => asLongWork(async () => await t.app.db.execute(sql`select pg_sleep(2.5)`)));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await waitUntil(
        async () =>
          Number((await admin.query("select count(*) as n from pg_stat_activity where query = 'select pg_sleep(2.5)'")).rows[0].n),
        (n) => n === 2,
        { what: "the two statements holding the pool" },
      );
    } finally {
      await admin.end();
    }

    const busy = await Promise.all(Array.from({ length: 16 }, () => t.call("GET", "/api/v1/usage")));
    for (const res of busy) {
      expect([res.status, res.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await errorOf(res)).toEqual({ code: "Overloaded", message: "the server is busy; try again in 1 s" });
    }
    const health = await t.call("GET", "/api/health", { key: null });
    expect([health.status, await health.json()]).toEqual([200, { status: "ok", database: { kind: "postgres", state: "up" } }]);
    const known = await t.call("GET", "/api/v1/listing");
    expect([known.status, known.headers.get("x-skillgate-stale"), await known.text()]).toEqual([200, null, listing]);
    expect(t.app.database.health.away).toBe(false);

    await Promise.all(holders);
    const served = await t.call("GET", "/api/v1/usage");
    expect(served.status).toBe(200);
    expect(t.app.database.health.away).toBe(false);
  });
});
