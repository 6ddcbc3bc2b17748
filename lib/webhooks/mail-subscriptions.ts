import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailSubscriptions } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { WEBHOOK_EVENTS, type WebhookEventName } from "./events";

/**
 * Mail for leads who ask for it (docs/learned-skills.md#webhooks-and-mail): per member and team, the events a lead wants
 * mailed, through the same outbox as webhooks. Only leads get them: a lead who becomes an editor
 * keeps the choice, and gets mail again only as a lead.
 */

export async function mailEventsOf(db: Db, teamId: TeamId, userId: number): Promise<WebhookEventName[]> {
  const [row] = await db
    .select({ events: mailSubscriptions.events })
    .from(mailSubscriptions)
    .where(and(eq(mailSubscriptions.teamId, teamId), eq(mailSubscriptions.userId, userId)));
  return WEBHOOK_EVENTS.filter((event) => row?.events.includes(event));
}

/** Sets the events mailed to this member (none: no mail). */
export async function setMailEvents(
  db: Db,
  teamId: TeamId,
  userId: number,
  events: readonly WebhookEventName[],
): Promise<WebhookEventName[]> {
  const chosen = WEBHOOK_EVENTS.filter((event) => events.includes(event));
  await db
    .insert(mailSubscriptions)
    .values({ teamId, userId, events: chosen })
    .onConflictDoUpdate({ target: [mailSubscriptions.teamId, mailSubscriptions.userId], set: { events: chosen, updatedAt: new Date() } });
  return chosen;
}
