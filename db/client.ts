import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema";

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
   * A hand-written query straight to the driver, for the one query on every agent request:
   * drizzle's query building and row mapping cost more than the query itself on PGlite.
   */
  query<T>(text: string, params: unknown[]): Promise<T[]>;
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
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (!config.url) return openPglite(config.dataDir ?? "./.data");
  const url = new URL(config.url);
  if (config.neon || url.hostname.endsWith(".neon.tech")) return openNeon(config.url);
  return openNodePostgres(config.url);
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const inMemory = dataDir.startsWith("memory://");
  let releaseLock = () => {};
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  try {
    const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir));
    await client.waitReady;
    const db = drizzle({ client, schema });
    return {
      db: db as unknown as Db,
      kind: "pglite",
      location: inMemory ? dataDir : path.resolve(dataDir),
      query: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * Two processes on one PGlite folder lose data without an error, so the folder is locked
 * by the process that opened it and a second opener is refused with a message.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "skillgate.lock");
  const holder = readLockHolder(lockFile);
  if (holder !== null && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `The embedded database in ${path.resolve(dataDir)} is in use by process ${holder}. ` +
        `Stop that process, or set SKILLGATE_DATA_DIR to another folder.`,
    );
  }
  writeFileSync(lockFile, String(process.pid));
  return () => {
    if (readLockHolder(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
}

function readLockHolder(lockFile: string): number | null {
  try {
    const pid = Number(readFileSync(lockFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
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

async function openNodePostgres(url: string): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    kind: "postgres",
    location: describeUrl(url),
    query: async <T>(text: string, params: unknown[]) => (await pool.query(text, params)).rows as T[],
    migrate: async () => {
      // The advisory lock belongs to a session: lock, migrate and unlock on one connection.
      const client = await pool.connect();
      try {
        const db = drizzle({ client, schema });
        await migrateLocked(db, () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openNeon(url: string): Promise<Database> {
  const { Pool, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  const { migrate } = await import("drizzle-orm/neon-serverless/migrator");
  const { default: ws } = await import("ws");
  // Node 20 has no global WebSocket.
  neonConfig.webSocketConstructor = ws;
  const pool = new Pool({ connectionString: url });
  pool.on("error", () => {});
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    kind: "neon",
    location: describeUrl(url),
    query: async <T>(text: string, params: unknown[]) => (await pool.query(text, params)).rows as T[],
    migrate: async () => {
      const client = await pool.connect();
      try {
        const db = drizzle({ client, schema });
        await migrateLocked(db, () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}
