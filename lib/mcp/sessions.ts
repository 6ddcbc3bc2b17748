import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpSessions } from "@/db/schema";
import type { TeamId } from "../teams/teams";

/** A session ends after this long without a request. */
export const MCP_IDLE_MS = 30 * 60 * 1000;
/** last_seen_at is moved at most this often: a busy session is not a write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

export async function openMcpSession(db: Db, id: string, owner: { teamId: TeamId; keyId: number }): Promise<void> {
  await db.insert(mcpSessions).values({ id, teamId: owner.teamId, keyId: owner.keyId });
}

/** Whether the session is open for this key; a live one is marked seen. */
export async function continueMcpSession(db: Db, id: string, keyId: number, now = new Date()): Promise<boolean> {
  const [session] = await db
    .select({ lastSeenAt: mcpSessions.lastSeenAt })
    .from(mcpSessions)
    .where(and(eq(mcpSessions.id, id), eq(mcpSessions.keyId, keyId), gt(mcpSessions.lastSeenAt, new Date(now.getTime() - MCP_IDLE_MS))));
  if (!session) return false;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(mcpSessions).set({ lastSeenAt: now }).where(eq(mcpSessions.id, id));
  }
  return true;
}

/** Ends the session (the client's DELETE); false when there was no such session for this key. */
export async function endMcpSession(db: Db, id: string, keyId: number): Promise<boolean> {
  const ended = await db
    .delete(mcpSessions)
    .where(and(eq(mcpSessions.id, id), eq(mcpSessions.keyId, keyId)))
    .returning({ id: mcpSessions.id });
  return ended.length > 0;
}

/** Forgets sessions idle past their end (at start-up): a lookup already refuses them. */
export async function deleteIdleMcpSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(mcpSessions).where(lt(mcpSessions.lastSeenAt, new Date(now.getTime() - MCP_IDLE_MS)));
}
