import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../helpers/db";

/**
 * The integration suites hand an in-memory PGlite on from one to the next (tests/helpers/db.ts,
 * docs/decisions/test-suite.md): only one left as the migrations made it, or a suite would see
 * what another changed.
 */
describe("an in-memory PGlite handed on between suites", () => {
  const tableNamed = async (database: Awaited<ReturnType<typeof openTestDatabase>>, name: string) =>
    (await database.query<{ n: number }>("select count(*)::int as n from pg_tables where tablename = $1", [name]))[0]?.n;

  it("is handed on with its rows when nothing else changed, and answers queries (its operations queue once, not behind themselves)", async () => {
    const first = await openTestDatabase("pglite", { handedOn: true });
    await first.query("insert into teams (slug, name) values ('handed-on', 'Handed on')", []);
    await first.close();
    const next = await openTestDatabase("pglite", { handedOn: true });
    const rows = await next.query<{ slug: string }>("select slug from teams where slug = 'handed-on'", []);
    await next.query("delete from teams where slug = 'handed-on'", []);
    await next.close();
    expect(rows).toEqual([{ slug: "handed-on" }]);
  });

  it.each([
    ["a table", "create table scratch_handed_on (id int)"],
    ["a trigger disabled", "alter table ledger_records disable trigger ledger_records_no_truncate"],
    ["a session setting", "set statement_timeout = 1234"],
    ["an advisory lock held", "select pg_advisory_lock(42)"],
  ])("is closed, and the next suite gets a fresh copy, when a suite left %s", async (_, change) => {
    const first = await openTestDatabase("pglite", { handedOn: true });
    await first.query("insert into teams (slug, name) values ('left-behind', 'Left behind')", []);
    await first.query(change, []);
    await first.close();
    const next = await openTestDatabase("pglite", { handedOn: true });
    const seen = [
      await tableNamed(next, "scratch_handed_on"),
      (await next.query<{ n: number }>("select count(*)::int as n from teams where slug = 'left-behind'", []))[0]?.n,
      (await next.query<{ statement_timeout: string }>("show statement_timeout", []))[0]?.statement_timeout,
      (await next.query<{ n: number }>("select count(*)::int as n from pg_locks where locktype = 'advisory'", []))[0]?.n,
      (await next.query<{ tgenabled: string }>("select tgenabled from pg_trigger where tgname = 'ledger_records_no_truncate'", []))[0]
        ?.tgenabled,
    ];
    await next.close();
    expect(seen).toEqual([0, 0, "0", 0, "O"]);
  });
});
