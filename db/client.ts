import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema";
import { lockDataDir } from "./data-dir-lock";
import type { PoolConfig } from "pg";
import { listenOn, listenOnServer, settlesWithin, TeamChangeFeed, TEAM_CHANGES_CHANNEL } from "./team-changes";
import { BudgetedPool, type BudgetSettings } from "./budgeted-pg";
import { OutageBreaker, type Probe } from "./breaker";
import { DatabaseStalled } from "./budget";
import { takeTurns } from "./pglite-turns";

/**
 * The one place that picks a database driver (docs/deploy.md#databases-and-drivers): no URL → embedded PGlite in a folder;
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
  /** Whether the server answers (db/breaker.ts): while it is away, what agents read is served from memory, marked stale. */
  health: DatabaseHealth;
  /** What each URL is used for, said at start-up. */
  uses: string;
  /**
   * Asks the server `select 1` on a connection outside the pool, within the probe's timeout: whether
   * the database answers, whatever the pool's queue holds. The breaker takes the answer as its own
   * probe's (db/breaker.ts).
   */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseHealth {
  /** The server was found away (a probe got no answer) and has not answered since. */
  readonly away: boolean;
  /** When the server last answered (ms since the epoch): how old what is served from memory is, at most. */
  readonly answeredAt: number;
}

export interface DatabaseConfig {
  /** A PostgreSQL URL; unset means embedded PGlite. */
  url?: string;
  /**
   * A direct URL to the same database (`DATABASE_URL_UNPOOLED`), when `url` goes through a pooler
   * in transaction mode (PgBouncer, Neon's pooled URL): what needs a session of its own uses it —
   * listening for changes, the migrations' lock, the outage probe.
   */
  unpooledUrl?: string;
  /** Connections the pool keeps at most (default 10). */
  poolSize?: number;
  /** How long a request waits for a free pooled connection, within its deadline (default 3 s); then 503 Overloaded. */
  queueMs?: number;
  /** PGlite's folder, or `memory://` for a throwaway in-memory database. */
  dataDir?: string;
  /**
   * For a `memory://` database: a dump of another PGlite database (`dumpDataDir`) to start as a
   * copy of, skipping initdb and whatever was done to that one. The tests start each database from
   * one migrated copy a run (tests/helpers/db.ts).
   */
  startFrom?: Blob;
  /**
   * An open in-memory PGlite to use instead of opening one: closing the database leaves it open for
   * whoever made it. The integration tests hand one from suite to suite (tests/helpers/db.ts).
   */
  pglite?: PGlite;
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

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_QUEUE_MS = 3_000;

/** A server's URLs and what the pool may do with them. */
interface ServerConfig {
  url: string;
  /** What needs a session: the direct URL, or `url` itself when there is no pooler in between. */
  sessionUrl: string;
  pooled: boolean;
  poolSize: number;
  queueMs: number;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (!config.url) return config.pglite ? adoptPglite(config.pglite) : openPglite(config.dataDir ?? "./.data", config.startFrom);
  const server: ServerConfig = {
    url: config.url,
    sessionUrl: config.unpooledUrl ?? config.url,
    pooled: config.unpooledUrl !== undefined,
    poolSize: config.poolSize ?? DEFAULT_POOL_SIZE,
    queueMs: config.queueMs ?? DEFAULT_QUEUE_MS,
  };
  if (config.neon || new URL(config.url).hostname.endsWith(".neon.tech")) return openNeon(server);
  return openNodePostgres(server, config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
}

async function openPglite(dataDir: string, startFrom: Blob | undefined): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const inMemory = dataDir.startsWith("memory://");
  if (startFrom && !inMemory) throw new Error("only a memory:// database starts from a dump: a folder keeps its own");
  let releaseLock = async () => {};
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = await lockDataDir(dataDir);
  }
  try {
    const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir), startFrom ? { loadDataDir: startFrom } : {});
    await client.waitReady;
    return await pgliteDatabase(client, inMemory ? dataDir : path.resolve(dataDir), async () => {
      await client.close();
      await releaseLock();
    });
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

/** A PGlite someone else opened and closes: the database's close leaves it open. */
async function adoptPglite(client: PGlite): Promise<Database> {
  await client.waitReady;
  return pgliteDatabase(client, "memory://", async () => {});
}

async function pgliteDatabase(client: PGlite, location: string, closeClient: () => Promise<void>): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  takeTurns(client);
  const db = drizzle({ client, schema });
  // One process owns the embedded database, and PGlite calls back before the write returns.
  const teamChanges = new TeamChangeFeed();
  const unlisten = await client.listen(TEAM_CHANGES_CHANNEL, (payload) => teamChanges.noticed(payload));
  teamChanges.setLive(true);
  // In the process, it cannot stall on its own: it is away only once closed.
  let closedAt: number | null = null;
  return {
    db: db as unknown as Db,
    kind: "pglite",
    location,
    query: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
    teamChanges,
    health: {
      get away() {
        return closedAt !== null;
      },
      get answeredAt() {
        return closedAt ?? Date.now();
      },
    },
    uses: `PGlite in ${location} for everything`,
    ping: async () => void (await client.query("select 1")),
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      closedAt = Date.now();
      teamChanges.setLive(false);
      await unlisten();
      await closeClient();
    },
  };
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

type Pg = typeof import("pg");

/** A server's driver: node-postgres, or Neon's serverless driver (node-postgres's API over WebSockets). */
interface ServerDriver {
  Pool: Pg["Pool"];
  Client: Pg["Client"];
}

/** What differs between the drivers on a server. */
interface ServerSettings {
  kind: "postgres" | "neon";
  /** What a statement of long work may take (db/budget.ts). */
  longQueryMs: number;
  /** What each pooled connection is opened with beyond the URL: session settings, and its LISTEN. */
  session: PoolConfig;
  afterTeamChange?: BudgetSettings["afterTeamChange"];
  /** What the session URL is used for, said at start-up. */
  sessionUses: string;
}

/**
 * For a server that stops answering (frozen, or a network that drops packets): opening a
 * connection gives up, and every statement and wait for a connection spends the caller's budget
 * (db/budget.ts, db/budgeted-pg.ts), so requests answer 503 within their deadline instead of
 * hanging. The pool's own `connectionTimeoutMillis` bounds opening a connection and, behind the
 * budget (which gives up first), the wait for a free one: long work too waits no longer than that.
 */
function serverPoolOptions(server: ServerConfig): PoolConfig {
  return {
    connectionString: server.url,
    max: server.poolSize,
    connectionTimeoutMillis: Math.max(CONNECT_TIMEOUT_MS, server.queueMs),
    keepAlive: true,
  };
}

/**
 * The outage probe (db/breaker.ts): `select 1` on a connection of its own to the server itself
 * (the direct URL behind a pooler: a pooler's queue is load, not an outage), kept open between
 * probes and opened again after one fails.
 */
function serverProbe(Client: Pg["Client"], url: string): { probe: Probe; close(): Promise<void> } {
  let client: InstanceType<Pg["Client"]> | null = null;
  // pg ends at once a connection with a statement unanswered on it; one that could not connect in time it ended itself.
  const drop = () => {
    void client?.end().catch(() => {});
    client = null;
  };
  const ask = async (ms: number) => {
    if (!client) {
      const fresh = new Client({ connectionString: url, connectionTimeoutMillis: ms, application_name: "skillgate-probe" });
      fresh.on("error", () => {});
      client = fresh;
      await fresh.connect();
    }
    await client.query("select 1");
  };
  let inFlight: Promise<void> | null = null;
  const probe = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      // Read what arrived before deciding: a busy event loop fires timers late (as db/budgeted-pg.ts does).
      timer = setTimeout(() => setImmediate(() => reject(new Error(`the database did not answer a probe within ${ms} ms`))), ms);
      timer.unref();
    });
    try {
      await Promise.race([ask(ms), timedOut]);
    } catch (error) {
      drop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    // One question at a time on the one connection: health and the breaker asking at once share it.
    probe: (ms) => (inFlight ??= probe(ms).finally(() => (inFlight = null))),
    close: async () => drop(),
  };
}

/**
 * Runs the migrations on a connection of their own to the server itself: the advisory lock belongs
 * to a session, so lock, migrate and unlock share one. No time limit: building an index on a big
 * table may take longer than any budget.
 */
async function migrateOnSession(Client: Pg["Client"], url: string): Promise<void> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    const db = drizzle({ client, schema });
    await migrateLocked(db, () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
  } finally {
    await client.end();
  }
}

/** A server's database through `driver`: the pool, its budget and breaker, the probe, the migrations. */
async function openServer(server: ServerConfig, driver: ServerDriver, settings: ServerSettings): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const prober = serverProbe(driver.Client, server.sessionUrl);
  const breaker = new OutageBreaker(prober.probe);
  const pool = new driver.Pool({ ...serverPoolOptions(server), ...settings.session });
  // A connection that fails while idle in the pool (which drops it), or between two statements of its
  // holder (whose next statement is told), is worth a probe; unheard, its error would end the process.
  // One that opened is the server answering, unless a pooler answered for it.
  const heard = (error: Error) => breaker.heard(error);
  pool.on("error", heard);
  pool.on("connect", (client) => {
    client.on("error", heard);
    if (!server.pooled) breaker.heard(null);
  });
  const budgeted = new BudgetedPool(pool, {
    breaker,
    longQueryMs: settings.longQueryMs,
    queueMs: server.queueMs,
    afterTeamChange: settings.afterTeamChange,
  });
  return {
    // Drizzle is given the budgeted pool in pg's pool's place (db/budgeted-pg.ts says how it tells one).
    db: drizzle({ client: budgeted as unknown as InstanceType<Pg["Pool"]>, schema }) as unknown as Db,
    kind: settings.kind,
    location: describeUrl(server.url),
    query: async <T>(text: string, params: unknown[]) => (await budgeted.query(text, params)).rows as T[],
    teamChanges: null,
    health: healthOf(breaker),
    uses: describeUses(server, settings.sessionUses),
    ping: () => breaker.check(),
    migrate: () => migrateOnSession(driver.Client, server.sessionUrl),
    close: async () => {
      breaker.stop();
      await Promise.all([prober.close(), endPool(pool, budgeted)]);
    },
  };
}

async function openNodePostgres(server: ServerConfig, statementTimeoutMs: number): Promise<Database> {
  const { default: pg } = await import("pg");
  const teamChanges = new TeamChangeFeed();
  const database = await openServer(server, pg, {
    kind: "postgres",
    // Long work waits a little longer than the server lets a statement run: the server's error comes first.
    longQueryMs: statementTimeoutMs + 5_000,
    // A pooler in transaction mode keeps no session: no start-up parameter it does not know (PgBouncer
    // refuses them), and no LISTEN on a connection that is not ours between statements.
    session: server.pooled
      ? {}
      : {
          statement_timeout: statementTimeoutMs,
          // No JIT: compiling a dashboard's aggregate over a month of rollups took longer than running
          // it (docs/decisions/dashboard-at-10000-skills.md).
          options: "-c jit=off",
          // Every connection listens too: PostgreSQL tells a listening connection of its own transaction's
          // notices before the commit returns, so this instance forgets a changed key before it answers.
          onConnect: (client) => listenOn(client, teamChanges, CONNECT_TIMEOUT_MS),
        },
    afterTeamChange: server.pooled ? (notify) => teamChanges.caughtUp(notify) : undefined,
    sessionUses: "change notifications (LISTEN), the migrations' lock and outage probes",
  });
  // The pool's connections come and go: one connection of its own hears other instances' changes.
  const listener = listenOnServer(pg.Client, server.sessionUrl, teamChanges);
  return {
    ...database,
    teamChanges,
    close: async () => {
      await Promise.all([listener.stop(), database.close()]);
    },
  };
}

async function openNeon(server: ServerConfig): Promise<Database> {
  const { Client, Pool, neonConfig } = await import("@neondatabase/serverless");
  const { default: ws } = await import("ws");
  // Node 20 has no global WebSocket.
  neonConfig.webSocketConstructor = ws;
  // Neon's driver is node-postgres's, over WebSockets: the same pool, connections and drizzle driver.
  const driver = { Pool: Pool as unknown as Pg["Pool"], Client: Client as unknown as Pg["Client"] };
  return openServer(server, driver, {
    kind: "neon",
    longQueryMs: NEON_LONG_QUERY_MS,
    // No statement_timeout start-up parameter: Neon's pooler refuses unknown ones. The budget still
    // ends a statement the server does not answer.
    session: {},
    sessionUses: "the migrations' lock and outage probes",
  });
}

/** How long closing waits for the pool's connections to come back, and then for their ends. */
const END_WAIT_MS = 1_500;

/**
 * Ends the pool: what is lent out gets a moment to come back, then is cut; a server that does not
 * answer (frozen) never finishes its part in ending a connection, so closing stops waiting after a
 * moment. SIGTERM ends the process in every state (docs/outages.md#shutdown).
 */
async function endPool(pool: { end(): Promise<void> }, budgeted: BudgetedPool): Promise<void> {
  const ending = pool.end();
  if (await settlesWithin(ending, END_WAIT_MS)) return;
  budgeted.cutAll(new DatabaseStalled("is closing"));
  await settlesWithin(ending, END_WAIT_MS);
}

function healthOf(breaker: OutageBreaker): DatabaseHealth {
  return {
    get away() {
      return breaker.isAway;
    },
    get answeredAt() {
      return breaker.lastAnsweredAt;
    },
  };
}

/** "DATABASE_URL (pooled, host:port/db) for queries; DATABASE_URL_UNPOOLED (…) for …", or one URL for everything. */
function describeUses(server: ServerConfig, session: string): string {
  if (!server.pooled) return `DATABASE_URL (${describeUrl(server.url)}) for queries and ${session}`;
  return `DATABASE_URL (${describeUrl(server.url)}, pooled) for queries; DATABASE_URL_UNPOOLED (${describeUrl(server.sessionUrl)}) for ${session}`;
}

function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}
