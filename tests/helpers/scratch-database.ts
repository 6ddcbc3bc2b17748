import { randomBytes } from "node:crypto";
import pg from "pg";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own on a PostgreSQL server (the test server by default), dropped by `drop()`. */
export async function scratchDatabase(prefix: string, serverUrl = process.env.TEST_DATABASE_URL): Promise<ScratchDatabase> {
  if (!serverUrl) throw new Error("a scratch database needs a PostgreSQL server: set TEST_DATABASE_URL");
  const admin = new pg.Client({ connectionString: serverUrl });
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
