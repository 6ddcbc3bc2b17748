import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { teams } from "@/db/schema";
import { specError } from "../errors";
import type { TeamId } from "../teams/teams";

/**
 * A lead's reason for a decision that changes what agents get — a pin, an unpin, a label moved or
 * taken off, a rollback (docs/learned-skills.md#reasons): optional, unless the team's `requireReasons` setting asks for one.
 * Read inside the decision's transaction, so a lead who turns the setting on is obeyed at once.
 */
export async function decisionReason(tx: Db, teamId: TeamId, reason: string | null | undefined): Promise<string | null> {
  const given = reason?.trim() || null;
  if (given !== null) return given;
  const [team] = await tx.select({ requireReasons: teams.requireReasons }).from(teams).where(eq(teams.id, teamId));
  if (team?.requireReasons)
    throw specError("ReasonRequired", 'this team asks for a reason with every pin, unpin, label move and rollback: send "reason"');
  return null;
}
