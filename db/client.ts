import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema";
import { lockDataDir } from "./data-dir-lock";
import { listenOn, listenOnServer, TeamChangeFeed, TEAM_CHANGES_CHANNEL } from "./team-changes";
import { budgetedClient, budgetedPool, OutageBreaker } from "./budgeted-pg";
import { asConnectionSetup } from "./budget";

/**
 * The one place that picks a database driver (SPEC §13): no URL → embedded PGlite in a folder;
 * a Neon host → Neon's serverless driver; any other PostgreSQL URL → node-postgres.
 * Everything above this module sees the same drizzle `Db` and the same migrations.
 */

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = "pglite" | "postgres" | "neon";

export interface Database {
  db: Db;
  kind: DbKind;
  /** Where it lives, with no password: a folder, `memory://`, or host/database. */
  location: string;
  /**
   * A hand-written query straight to the driver, for the one query on every agent request (and
   * health, and the dashboard's session check): drizzle's query building and row mapping cost more
   * than the query itself on PGlite. On a server it spends the request's budget (db/budget.ts), as
   * every query does.
   */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
  /**
   * Changes to teams and their keys, from any instance; null where the driver cannot listen
   * (Neon's serverless driver), and nothing about a key is cached there. A change is heard before
   * the write that made it returns on this instance, so a request after it never sees the old one.
   */
  teamChanges: TeamChangeFeed | null;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseConfig {
  /** A PostgreSQL URL; unset means embedded PGlite. */
  url?: string;
  /** PGlite's folder, or `memory://` for a throwaway in-memory database. */
  dataDir?: string;
  /** Force Neon's driver for a URL whose host is not Neon's (serverless deployments). */
  neon?: boolean;
  /**
   * On a server, how long one statement may run before the server ends it (default 15 s): the
   * bound for work with a long budget (db/budget.ts), whose statements the client waits longer for.
   */
  statementTimeoutMs?: number;
}

/** Opening a connection gives up after this: a server that accepts and never answers is an outage. */
const CONNECT_TIMEOUT_MS = 3_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
/** Neon's pooler takes no statement timeout: long work's queries are ended by the client alone. */
const NEON_LONG_QUERY_MS = 20_000;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (!config.url) return openPglite(config.dataDir ?? "./.data");
  const url = new URL(config.url);
  if (config.neon || url.hostname.endsWith(".neon.tech")) return openNeon(config.url);
  return openNodePostgres(config.url, config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const inMemory = dataDir.startsWith("memory://");
  let releaseLock = async () => {};
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = await lockDataDir(dataDir);
  }
  try {
    const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir));
    await client.waitReady;
    const db = drizzle({ client, schema });
    // One process owns the embedded database, and PGlite calls back before the write returns.
    const teamChanges = new TeamChangeFeed();
    const unlisten = await client.listen(TEAM_CHANGES_CHANNEL, (payload) => teamChanges.noticed(payload));
    teamChanges.setLive(true);
    return {
      db: db as unknown as Db,
      kind: "pglite",
      location: inMemory ? dataDir : path.resolve(dataDir),
      query: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
      teamChanges,
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: async () => {
        teamChanges.setLive(false);
        await unlisten();
        await client.close();
        await releaseLock();
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

// Only one migrator at a time when several instances start against one server.
async function migrateLocked(db: { execute(query: ReturnType<typeof sql>): Promise<unknown> }, run: () => Promise<void>) {
  await db.execute(sql`select pg_advisory_lock(7346201)`);
  try {
    await run();
  } finally {
    await db.execute(sql`select pg_advisory_unlock(7346201)`);
  }
}

/**
 * For a server that stops answering (frozen, or a network that drops packets): opening a
 * connection gives up, and the clients spend the caller's budget (db/budget.ts), so requests
 * answer 503 within their deadline instead of hanging. Migrations run on a connection of their
 * own without a limit: building an index on a big table may take longer.
 */
function serverPoolOptions(url: string) {
  return {
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  };
}

async function openNodePostgres(url: string, statementTimeoutMs: number): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const teamChanges = new TeamChangeFeed();
  const breaker = new OutageBreaker();
  // Long work waits a little longer than the server lets a statement run: the server's error comes first.
  const longQueryMs = statementTimeoutMs + 5_000;
  const pool = new (budgetedPool(pg.Pool, breaker, longQueryMs))({
    ...serverPoolOptions(url),
    Client: budgetedClient(pg.Client, breaker, longQueryMs),
    statement_timeout: statementTimeoutMs,
    // Every connection listens too: PostgreSQL tells a listening connection of its own transaction's
    // notices before the commit returns, so this instance forgets a changed key before it answers.
    onConnect: (client: import("pg").ClientBase) => asConnectionSetup(() => listenOn(client, teamChanges)),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  // The pool's connections come and go: one connection of its own hears other instances' changes.
  const listener = listenOnServer(pg.Client, url, teamChanges);
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    kind: "postgres",
    location: describeUrl(url),
    query: async <T>(text: string, params: unknown[]) => (await pool.query(text, params)).rows as T[],
    teamChanges,
    migrate: async () => {
      // The advisory lock belongs to a session: lock, migrate and unlock on one connection.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      await client.connect();
      try {
        const db = drizzle({ client, schema });
        await migrateLocked(db, () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
      } finally {
        await client.end();
      }
    },
    close: async () => {
      await listener.stop();
      await pool.end();
    },
  };
}

async function openNeon(url: string): Promise<Database> {
  const { Client, Pool, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  const { migrate } = await import("drizzle-orm/neon-serverless/migrator");
  const { default: ws } = await import("ws");
  // Node 20 has no global WebSocket.
  neonConfig.webSocketConstructor = ws;
  // No statement_timeout start-up parameter: Neon's pooler refuses unknown ones. The client's
  // budget still ends a query the server does not answer.
  const breaker = new OutageBreaker();
  const pool = new (budgetedPool(Pool, breaker, NEON_LONG_QUERY_MS))({
    ...serverPoolOptions(url),
    Client: budgetedClient(Client, breaker, NEON_LONG_QUERY_MS),
  });
  pool.on("error", () => {});
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    kind: "neon",
    location: describeUrl(url),
    query: async <T>(text: string, params: unknown[]) => (await pool.query(text, params)).rows as T[],
    teamChanges: null,
    migrate: async () => {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      await client.connect();
      try {
        const db = drizzle({ client, schema });
        await migrateLocked(db, () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
      } finally {
        await client.end();
      }
    },
    close: () => pool.end(),
  };
}

function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}
