import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, teams, users } from "@/db/schema";
import { endSessionsOf } from "../auth/dashboard-sessions";
import { revokeMemberKeys } from "../auth/member-keys";
import type { Role } from "../auth/scopes";
import { normalizeEmail } from "../auth/users";
import { revokeConnectionsBeyond } from "../oauth/connections";
import { AppError } from "../errors";
import type { TeamId } from "./teams";

/**
 * A team's members and their roles (docs/teams-and-keys.md). A lead changes roles and removes members; a team
 * always keeps at least one lead, checked under a lock on the team so two leads demoting each
 * other at once cannot both succeed.
 */

export interface Member {
  userId: number;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

export async function listMembers(db: Db, teamId: TeamId): Promise<Member[]> {
  return db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.teamId, teamId))
    .orderBy(asc(users.email));
}

const lastLead = (email: string) =>
  new AppError("LastLead", `${email} is the team's last lead: make another member lead first, so the team keeps one`);

/** The member with this email, read inside the caller's transaction after the team is locked. */
async function lockedMember(tx: Db, teamId: TeamId, email: string): Promise<{ member: Member; leads: number }> {
  await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("update");
  const members = await listMembers(tx, teamId);
  const member = members.find((candidate) => candidate.email === normalizeEmail(email));
  if (!member) throw new AppError("MemberNotFound", `no member ${normalizeEmail(email)} in this team`);
  return { member, leads: members.filter((candidate) => candidate.role === "lead").length };
}

export async function changeRole(db: Db, teamId: TeamId, email: string, role: Role): Promise<Member> {
  return db.transaction(async (tx) => {
    const { member, leads } = await lockedMember(tx, teamId, email);
    if (member.role === "lead" && role !== "lead" && leads === 1) throw lastLead(member.email);
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.teamId, teamId), eq(memberships.userId, member.userId)));
    await revokeConnectionsBeyond(tx, teamId, member.userId, role);
    return { ...member, role };
  });
}

/**
 * Removes a member, ends their dashboard sessions, their clients' connections and their own key
 * (lib/auth/member-keys.ts), so nothing they had open keeps working.
 */
export async function removeMember(db: Db, teamId: TeamId, email: string): Promise<{ email: string; sessionsEnded: number }> {
  return db.transaction(async (tx) => {
    const { member, leads } = await lockedMember(tx, teamId, email);
    if (member.role === "lead" && leads === 1) throw lastLead(member.email);
    await tx.delete(memberships).where(and(eq(memberships.teamId, teamId), eq(memberships.userId, member.userId)));
    await revokeConnectionsBeyond(tx, teamId, member.userId, null);
    await revokeMemberKeys(tx, teamId, member.userId);
    return { email: member.email, sessionsEnded: await endSessionsOf(tx, member.userId) };
  });
}

/** A lead signs a member of their team out of every browser (a lead cannot reach people outside the team). */
export async function endMemberSessions(db: Db, teamId: TeamId, userId: number): Promise<{ email: string; ended: number }> {
  const [member] = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.teamId, teamId), eq(memberships.userId, userId)));
  if (!member) throw new AppError("MemberNotFound", `no member ${userId} in this team`);
  return { email: member.email, ended: await endSessionsOf(db, userId) };
}

/** Whether the person is already a member of the team, and with which role. */
export async function roleOfEmail(db: Db, teamId: TeamId, email: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.teamId, teamId), eq(users.email, normalizeEmail(email))));
  return row?.role ?? null;
}
