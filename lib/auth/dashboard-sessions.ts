import { randomBytes } from "node:crypto";
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { dashboardSessions } from "@/db/schema";
import { sha256Hex } from "../hash";

/**
 * People's dashboard sessions, kept on the server (ASVS V3.3): the session cookie is an Auth.js
 * JWT that names a row here by a random id. Sign-out deletes the row, so a copy of the cookie taken
 * before (or set again by a request still in flight) no longer opens anything; so does ending a
 * person's sessions. A session also ends after `idleMs` without a request and `maxMs` after
 * sign-in, whatever the cookie says.
 */

export type SessionId = string & { readonly __brand: "SessionId" };

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Last-seen is written at most this often per session: a request is not a write. */
const TOUCH_EVERY_MS = 60_000;

export async function startDashboardSession(db: Db, userId: number, policy: SessionPolicy, now = new Date()): Promise<SessionId> {
  const id = randomBytes(32).toString("base64url") as SessionId;
  await db.delete(dashboardSessions).where(and(eq(dashboardSessions.userId, userId), expired(policy, now)));
  await db.insert(dashboardSessions).values({ idHash: sha256Hex(id), userId, createdAt: now, lastSeenAt: now });
  return id;
}

interface SessionRow {
  user_id: number;
  created_at: Date | string;
  last_seen_at: Date | string;
}

/**
 * The person a live session belongs to, or null when it ended or expired. One fast query (the
 * database's short timeout: an outage throws, it is not taken for a signed-out visitor), and
 * a write at most once a minute.
 */
export async function checkDashboardSession(
  database: Database,
  id: string,
  policy: SessionPolicy,
  now = new Date(),
): Promise<{ userId: number } | null> {
  const idHash = sha256Hex(id);
  const [row] = await database.query<SessionRow>("select user_id, created_at, last_seen_at from dashboard_sessions where id_hash = $1", [
    idHash,
  ]);
  if (!row) return null;
  const created = new Date(row.created_at).getTime();
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (now.getTime() - lastSeen > policy.idleMs || now.getTime() - created > policy.maxMs) {
    await database.query("delete from dashboard_sessions where id_hash = $1", [idHash]);
    return null;
  }
  if (now.getTime() - lastSeen > TOUCH_EVERY_MS) {
    await database.query("update dashboard_sessions set last_seen_at = $2 where id_hash = $1", [idHash, now.toISOString()]);
  }
  return { userId: row.user_id };
}

export async function endDashboardSession(db: Db, id: string): Promise<void> {
  await db.delete(dashboardSessions).where(eq(dashboardSessions.idHash, sha256Hex(id)));
}

/** Ends every session of a person (a lead's "end sessions", and removing a member); returns how many. */
export async function endSessionsOf(db: Db, userId: number): Promise<number> {
  const ended = await db
    .delete(dashboardSessions)
    .where(eq(dashboardSessions.userId, userId))
    .returning({ idHash: dashboardSessions.idHash });
  return ended.length;
}

export interface PersonSessions {
  userId: number;
  active: number;
  lastSeenAt: Date | null;
}

/** Live sessions per person, for the settings page. */
export async function sessionsOf(db: Db, userIds: number[], policy: SessionPolicy, now = new Date()): Promise<Map<number, PersonSessions>> {
  const found = new Map<number, PersonSessions>();
  if (userIds.length === 0) return found;
  const rows = await db
    .select({
      userId: dashboardSessions.userId,
      active: sql<number>`count(*)::int`,
      lastSeenAt: sql<Date | string>`max(${dashboardSessions.lastSeenAt})`,
    })
    .from(dashboardSessions)
    .where(and(inArray(dashboardSessions.userId, userIds), sql`not (${expired(policy, now)})`))
    .groupBy(dashboardSessions.userId);
  for (const row of rows)
    found.set(row.userId, { userId: row.userId, active: row.active, lastSeenAt: row.lastSeenAt ? new Date(row.lastSeenAt) : null });
  return found;
}

/** Deletes every expired session (at start-up). */
export async function deleteExpiredSessions(db: Db, policy: SessionPolicy, now = new Date()): Promise<void> {
  await db.delete(dashboardSessions).where(expired(policy, now));
}

function expired(policy: SessionPolicy, now: Date) {
  const condition = or(
    lt(dashboardSessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
    lt(dashboardSessions.createdAt, new Date(now.getTime() - policy.maxMs)),
  );
  // or() is empty only when every condition given to it is.
  if (!condition) throw new Error("or() of two conditions came back empty");
  return condition;
}
