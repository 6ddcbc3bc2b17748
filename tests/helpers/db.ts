import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { MIGRATIONS_FOLDER, openDatabase, type Database } from "@/db/client";

/** Every integration suite runs on PGlite, and on a real PostgreSQL server when TEST_DATABASE_URL is set. */
export type TestDbKind = "pglite" | "postgres";
export const testDbKinds: TestDbKind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * A fresh, migrated database: in-memory PGlite, or a new database on the server dropped on close.
 * `via` reroutes the app's connections to the server (through a proxy that can freeze, say);
 * `pooler` puts a pooler in front (its URL from the server's), the server's own URL then being the
 * unpooled one; `serverUrl` names another server than TEST_DATABASE_URL's (a cluster the test owns); `poolSize`
 * and `queueMs` set the pool's size and a request's longest wait for a connection. `handedOn`: a
 * PGlite the suite before gave back may be used, and closing gives this one back (see below).
 */
export async function openTestDatabase(
  kind: TestDbKind,
  options: {
    via?: (url: string) => Promise<string>;
    pooler?: (url: string) => Promise<string>;
    serverUrl?: string;
    poolSize?: number;
    queueMs?: number;
    handedOn?: boolean;
  } = {},
): Promise<Database> {
  if (kind === "pglite") {
    const database = options.handedOn
      ? await handedOnPglite()
      : await openDatabase({ dataDir: "memory://", startFrom: await migratedPglite() });
    await database.migrate(); // nothing to do: the copy is migrated; says so if a migration was missed
    return database;
  }
  const adminUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL!;
  const name = `skillgate_test_${randomBytes(6).toString("hex")}`;
  const template = await migratedTemplate(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
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

/*
 * A test database starts as a copy of one migrated a run, not migrated itself: PGlite's initdb and
 * the migrations took ~2.9 s per database, ~0.55 s on a server, and the integration project opens
 * ~70 of each (docs/decisions/test-suite.md). A copy takes ~1.3 s on PGlite, ~0.2 s on a server.
 */

/** The migrations, as a short hash: a template made from other migrations is not used. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: "utf8" }).sort()) {
    if (!file.endsWith(".sql") && !file.endsWith(".json")) continue;
    hash.update(file).update(readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  }
  return hash.digest("hex").slice(0, 12);
}

/*
 * Opening an in-memory PGlite from the dump takes about 1.1 s, most of it PGlite's own start-up, and
 * the integration project opens one per suite (useTestApp). A suite's database is handed on to the
 * next suite of the worker instead, emptied by the next test's reset (resetDatabase), but only while
 * it is as the migrations left it: a suite that changed its schema, its triggers, a session setting
 * or held a lock closes it for good, and the next suite opens a fresh copy.
 */
const givenBack: PGlite[] = [];
let pristine: Promise<string> | undefined;

async function handedOnPglite(): Promise<Database> {
  const client = givenBack.pop() ?? (await freshPglite());
  const database = await openDatabase({ pglite: client });
  return {
    ...database,
    close: async () => {
      await database.close();
      if (givenBack.length === 0 && (await schemaOf(client)) === (await pristine)) givenBack.push(client);
      else await client.close();
    },
  };
}

async function freshPglite(): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  const client = new PGlite("memory://", { loadDataDir: await migratedPglite() });
  pristine ??= schemaOf(client);
  await pristine;
  return client;
}

/** What a suite could leave behind in a database beyond its rows, as one text to compare. */
async function schemaOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ schema: string }>(`
    select string_agg(item, E'\n' order by item) as schema from (
      select 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text as item from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\_toast%'
      union all select 'column ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || a.atttypid::regtype::text || ' ' || a.attnotnull::text
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
      union all select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
        where connamespace = 'public'::regnamespace
      union all select 'trigger ' || tgrelid::regclass::text || '.' || tgname || ' ' || tgenabled::text from pg_trigger where not tgisinternal
      union all select 'function ' || p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname not in ('pg_catalog', 'information_schema')
      union all select 'setting ' || name || '=' || setting from pg_settings where source = 'session'
      union all select 'role ' || rolname from pg_roles
      union all select 'extension ' || extname from pg_extension
      union all select 'lock ' || objid::text from pg_locks where locktype = 'advisory'
      union all select 'listening ' || channel from pg_listening_channels() channel
    ) items`);
  return rows[0]?.schema ?? "";
}

let pgliteDump: Promise<Blob> | undefined;

/** A migrated in-memory PGlite's dump, made once per worker. */
function migratedPglite(): Promise<Blob> {
  pgliteDump ??= (async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = new PGlite("memory://");
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      return await client.dumpDataDir("none");
    } finally {
      await client.close();
    }
  })();
  return pgliteDump;
}

const TEMPLATE_PREFIX = "skillgate_test_template_";
const templates = new Map<string, Promise<string>>();

/**
 * A migrated database on the server named by the migrations' hash, made by the first run that needs
 * it (under a lock, as several runs may start at once) and kept for the next runs; one made from
 * other migrations is dropped then, unless a run is copying it.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  let template = templates.get(adminUrl);
  if (!template) {
    template = makeTemplate(adminUrl);
    templates.set(adminUrl, template);
  }
  return template;
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext($1))", [TEMPLATE_PREFIX]);
    const found = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${TEMPLATE_PREFIX}%`]);
    if (found.rows.some((row) => row.datname === name)) return name;
    for (const { datname } of found.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
    // Made aside and renamed once migrated: a run never copies half a template.
    const aside = `${name}_making`;
    await admin.query(`drop database if exists ${aside}`);
    await admin.query(`create database ${aside}`);
    const url = new URL(adminUrl);
    url.pathname = `/${aside}`;
    const database = await openDatabase({ url: url.toString() });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await admin.query(`alter database ${aside} rename to ${name}`);
    return name;
  } finally {
    await admin.query("select pg_advisory_unlock(hashtext($1))", [TEMPLATE_PREFIX]).catch(() => {});
    await admin.end();
  }
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
