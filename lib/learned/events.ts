import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, skillEvents, users } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { authorName, authorOf, isConnection, namedAuthor, type Actor, type Author } from "./actor";

/** Every kind of event the history holds (docs/learned-skills.md#history, docs/dashboard.md#promotion-history), in the order a skill's life meets them. */
export const SKILL_EVENT_KINDS = [
  "created",
  "edited",
  "amended",
  "evaluated",
  "promoted",
  "approved",
  "rejected",
  "overridden",
  "pinned",
  "unpinned",
  "labelled",
  "unlabelled",
  "rolled-back",
  "verified",
  "archived",
  "restored",
  "imported",
] as const;
export type SkillEventKind = (typeof SKILL_EVENT_KINDS)[number];

export async function recordEvent(
  db: Db,
  teamId: TeamId,
  skillName: string,
  kind: SkillEventKind,
  actor: Actor | Author,
  version: number | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  // Work finished by another instance than the one it was started on names its author by the ids it kept.
  const author = "kind" in actor ? authorOf(actor) : actor;
  await db.insert(skillEvents).values({
    teamId,
    skillName,
    kind,
    version,
    actorUserId: author.userId,
    actorKeyId: author.keyId,
    sessionId: author.sessionId,
    detail,
  });
}

/** Events with what names their author — the person's email, the key's name — for a `where` to narrow: the history, the pin's record. */
export function eventsWithAuthors(db: Db) {
  return db
    .select({ event: skillEvents, email: users.email, keyName: apiKeys.name, keyIsConnection: isConnection(apiKeys) })
    .from(skillEvents)
    .leftJoin(users, eq(users.id, skillEvents.actorUserId))
    .leftJoin(apiKeys, eq(apiKeys.id, skillEvents.actorKeyId));
}

/** Who made an event, in words (`authorName`), from a row of `eventsWithAuthors`. */
export function eventAuthor(row: Awaited<ReturnType<ReturnType<typeof eventsWithAuthors>["execute"]>>[number]): string {
  const { event, email, keyName, keyIsConnection } = row;
  return authorName(
    namedAuthor({ userId: event.actorUserId, email, keyId: event.actorKeyId, keyName, keyIsConnection, session: event.sessionId }),
  );
}
