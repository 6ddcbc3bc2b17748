import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { apiKeys, memberships, users } from "@/db/schema";
import { AppError } from "../errors";
import { generateApiKey, hashApiKey } from "./api-keys";
import type { TeamId } from "../teams/teams";

/**
 * A member key is a member's own telemetry key ("My Claude Code key" in settings): scope
 * `telemetry`, bound to the member on `api_keys.user_id`, so everything it sends is attributed to
 * that member's email whatever the agent says the person is (lib/http/otlp-route.ts). A member has
 * at most one live: making a new one revokes the last. It stops working when the member leaves
 * the team. docs/decisions/people-as-people.md.
 */

export interface MemberKey {
  id: number;
  prefix: string;
  createdAt: Date;
}

/** How the team's key list names a member's key: whose it is. */
export function memberKeyName(email: string): string {
  return `Claude Code key of ${email}`.slice(0, 80);
}

/**
 * Makes the member's key and revokes the one they had, in one transaction under a lock on their
 * membership: of many made at once, each returns its key and the last made is the one live (a
 * partial unique index holds that however the rows got there). A person who is not a member gets
 * `MemberNotFound`.
 */
export async function makeMemberKey(db: Db, teamId: TeamId, userId: number, now = new Date()): Promise<{ id: number; key: string }> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.teamId, teamId), eq(memberships.userId, userId)))
      .for("update", { of: memberships });
    if (!member) throw new AppError("MemberNotFound", `no member ${userId} in this team`);
    await revokeMemberKeys(tx, teamId, userId, now);
    const key = generateApiKey();
    const rows = await tx
      .insert(apiKeys)
      .values({
        teamId,
        name: memberKeyName(member.email),
        prefix: key.slice(0, 10),
        keyHash: hashApiKey(key),
        scopes: ["telemetry"],
        createdBy: userId,
        userId,
        createdAt: now,
      })
      .returning({ id: apiKeys.id });
    return { id: singleRow(rows).id, key };
  });
}

/** The member's live key, to say which one they hold; null when they have none. */
export async function memberKeyOf(db: Db, teamId: TeamId, userId: number): Promise<MemberKey | null> {
  const [key] = await db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt })
    .from(apiKeys)
    .where(liveKeysOf(teamId, userId));
  return key ?? null;
}

/** Revokes the member's key (they leave the team, or make a new one); how many were live. */
export async function revokeMemberKeys(db: Db, teamId: TeamId, userId: number, now = new Date()): Promise<number> {
  const revoked = await db.update(apiKeys).set({ revokedAt: now }).where(liveKeysOf(teamId, userId)).returning({ id: apiKeys.id });
  return revoked.length;
}

/** A member key is a row with both a member and a key hash; a connection has a member and no key. */
function liveKeysOf(teamId: TeamId, userId: number) {
  return and(eq(apiKeys.teamId, teamId), eq(apiKeys.userId, userId), isNotNull(apiKeys.keyHash), isNull(apiKeys.revokedAt));
}
