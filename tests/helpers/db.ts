import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "@/db/client";

/** Every integration suite runs on PGlite, and on a real PostgreSQL server when TEST_DATABASE_URL is set. */
export type TestDbKind = "pglite" | "postgres";
export const testDbKinds: TestDbKind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * A fresh, migrated database: in-memory PGlite, or a new database on the server dropped on close.
 * `via` reroutes the app's connections to the server (through a proxy that can freeze, say);
 * `pooler` puts a pooler in front (its URL from the server's), the server's own URL then being the
 * unpooled one; `serverUrl` names another server than TEST_DATABASE_URL's (a cluster the test owns); `poolSize`
 * and `queueMs` set the pool's size and a request's longest wait for a connection.
 */
export async function openTestDatabase(
  kind: TestDbKind,
  options: {
    via?: (url: string) => Promise<string>;
    pooler?: (url: string) => Promise<string>;
    serverUrl?: string;
    poolSize?: number;
    queueMs?: number;
  } = {},
): Promise<Database> {
  if (kind === "pglite") {
    const database = await openDatabase({ dataDir: "memory://" });
    await database.migrate();
    return database;
  }
  const adminUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL!;
  const name = `skillgate_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const direct = options.via ? await options.via(url.toString()) : url.toString();
  const database = await openDatabase({
    // Behind a pooler, what needs a session of its own goes straight to the server.
    ...(options.pooler ? { url: await options.pooler(direct), unpooledUrl: direct } : { url: direct }),
    poolSize: options.poolSize,
    queueMs: options.queueMs,
  });
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * Empties every table of the app and restarts their ids, as right after the migrations: a test
 * then starts from a known state however the tests before it left the database. Drizzle's
 * record of applied migrations lives in its own schema and stays.
 *
 * DELETE, not TRUNCATE: on tables this small it is ten times faster on a server (TRUNCATE makes
 * new files for 55 tables, ~180 ms against ~15 ms), and every integration test starts with it.
 * With `session_replication_role = replica` no trigger fires for it — neither the foreign keys
 * (so the order of the tables does not matter) nor the ledger's append-only guard (db/migrations/0003)
 * nor the change notices — and only inside this transaction. That needs a superuser, as PGlite's
 * user and CI's are; another user gets TRUNCATE, with the ledger's guard off for it alone.
 */
export async function resetDatabase(database: Database): Promise<void> {
  // A test before may have left the breaker open (a probe unanswered under its load): ask the
  // server now, as health does, rather than be refused until the next probe in a second.
  if (database.health.away) await database.ping();
  const tables = await database.query<{ name: string; superuser: boolean }>(
    `select quote_ident(tablename) as name, (select rolsuper from pg_roles where rolname = current_user) as superuser
     from pg_tables where schemaname = 'public'`,
    [],
  );
  await database.db.transaction(async (tx) => {
    if (tables[0]?.superuser) {
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const table of tables) await tx.execute(sql.raw(`delete from ${table.name}`));
      await tx.execute(
        sql`select setval(s.seqrelid, s.seqstart, false) from pg_sequence s join pg_class c on c.oid = s.seqrelid
            join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'`,
      );
      return;
    }
    await tx.execute(sql`alter table ledger_records disable trigger ledger_records_no_truncate`);
    await tx.execute(sql.raw(`truncate ${tables.map((table) => table.name).join(", ")} restart identity cascade`));
    await tx.execute(sql`alter table ledger_records enable trigger ledger_records_no_truncate`);
  });
}
