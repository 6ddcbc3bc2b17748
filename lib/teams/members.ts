import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { endSessionsOf } from "../auth/dashboard-sessions";
import { AppError } from "../errors";
import type { TeamId } from "./teams";

/** A lead signs a member of their team out of every browser (a lead cannot reach people outside the team). */
export async function endMemberSessions(db: Db, teamId: TeamId, userId: number): Promise<{ email: string; ended: number }> {
  const [member] = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.teamId, teamId), eq(memberships.userId, userId)));
  if (!member) throw new AppError("NotFound", `no member ${userId} in this team`);
  return { email: member.email, ended: await endSessionsOf(db, userId) };
}
