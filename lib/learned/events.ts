import type { Db } from "@/db/client";
import { skillEvents } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { authorOf, type Actor } from "./actor";

export type SkillEventKind =
  | "created"
  | "edited"
  | "amended"
  | "evaluated"
  | "promoted"
  | "overridden"
  | "rolled-back"
  | "verified"
  | "archived"
  | "restored"
  | "imported";

export async function recordEvent(
  db: Db,
  teamId: TeamId,
  skillName: string,
  kind: SkillEventKind,
  actor: Actor,
  version: number | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const author = authorOf(actor);
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
