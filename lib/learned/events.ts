import type { Db } from "@/db/client";
import { skillEvents } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { authorOf, type Actor, type Author } from "./actor";

/** Every kind of event the history holds (§8.4, §10), in the order a skill's life meets them. */
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
