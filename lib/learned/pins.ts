import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, learnedSkills, skillEvents, users } from "@/db/schema";
import { AppError, specError } from "../errors";
import { recordListingSnapshot } from "../listing/snapshots";
import { bumpCatalogRevision } from "../skills/catalog-cache";
import { servedChoice, type Served } from "../skills/catalog";
import { parseSkillMd } from "../skills/skill-md";
import type { TeamId } from "../teams/teams";
import { authorName, isConnection, namedAuthor, requireLead, type Actor } from "./actor";
import { recordEvent } from "./events";
import { decisionReason } from "./reasons";
import { getLearnedVersion } from "./store";
import { partOf, writableLearned, type Deps } from "./write";

/**
 * A lead's pin (§10): the version every reader that asks for no label gets, until it is lifted.
 * New versions are still made, and served once the pin is lifted (or moved by a rollback).
 */

export interface Pinned {
  name: string;
  pinnedVersion: number;
  served: Served;
}

/** `POST /api/v1/skills/<name>/pin`: skill_view without `?version`, the listing and every other reader serve `version`. */
export async function pinLearned(
  deps: Deps,
  teamId: TeamId,
  actor: Actor,
  name: string,
  version: number,
  reason?: string | null,
): Promise<Pinned> {
  requireLead(actor, "pinning a version");
  const active = await deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    const target = await getLearnedVersion(tx, row.id, version);
    if (!target) throw specError("VersionNotFound", `'${name}' has no v${version}; it is at v${row.currentVersion}`);
    const why = await decisionReason(tx, teamId, reason);
    const { description } = parseSkillMd(target.frontmatter + target.body);
    await tx.update(learnedSkills).set({ pinnedVersion: version, pinnedDescription: description }).where(eq(learnedSkills.id, row.id));
    await recordEvent(tx, teamId, name, "pinned", actor, version, {
      latest: row.currentVersion,
      ...(row.pinnedVersion !== null && { from: row.pinnedVersion }),
      ...(why !== null && { reason: why }),
    });
    await bumpCatalogRevision(tx, teamId, partOf(row.status));
    return row.status === "active";
  });
  if (active) await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} pinned to v${version}`);
  return { name, pinnedVersion: version, served: servedChoice(version, version, null) };
}

/** `DELETE /api/v1/skills/<name>/pin`: agents get the latest version again. */
export async function unpinLearned(deps: Deps, teamId: TeamId, actor: Actor, name: string, reason?: string | null) {
  requireLead(actor, "unpinning a version");
  const result = await deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    if (row.pinnedVersion === null)
      throw new AppError("NotPinned", `'${name}' is not pinned: agents already get its latest version, v${row.currentVersion}`);
    const why = await decisionReason(tx, teamId, reason);
    await tx.update(learnedSkills).set({ pinnedVersion: null, pinnedDescription: null }).where(eq(learnedSkills.id, row.id));
    await recordEvent(tx, teamId, name, "unpinned", actor, row.currentVersion, {
      was: row.pinnedVersion,
      ...(why !== null && { reason: why }),
    });
    await bumpCatalogRevision(tx, teamId, partOf(row.status));
    return { active: row.status === "active", version: row.currentVersion };
  });
  if (result.active) await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} unpinned`);
  return { name, pinnedVersion: null, version: result.version, served: servedChoice(result.version, null, null) };
}

/** Who put a skill's pin on the version it is on, when and why (§10): what the skill page's first line says. */
export interface PinRecord {
  version: number;
  by: string;
  at: Date;
  reason: string | null;
}

/** The latest event that put the pin on `version`: a pin, or a rollback that moved it there. Null when the history holds none. */
export async function pinRecord(db: Db, teamId: TeamId, name: string, version: number): Promise<PinRecord | null> {
  const [row] = await db
    .select({ event: skillEvents, email: users.email, keyName: apiKeys.name, keyIsConnection: isConnection(apiKeys) })
    .from(skillEvents)
    .leftJoin(users, eq(users.id, skillEvents.actorUserId))
    .leftJoin(apiKeys, eq(apiKeys.id, skillEvents.actorKeyId))
    .where(
      and(
        eq(skillEvents.teamId, teamId),
        eq(skillEvents.skillName, name),
        or(
          and(eq(skillEvents.kind, "pinned"), eq(skillEvents.version, version)),
          and(eq(skillEvents.kind, "rolled-back"), sql`(${skillEvents.detail}->'pin'->>'to')::int = ${version}`),
        ),
      ),
    )
    .orderBy(desc(skillEvents.id))
    .limit(1);
  if (!row) return null;
  const { event, email, keyName, keyIsConnection } = row;
  const author = namedAuthor({
    userId: event.actorUserId,
    email,
    keyId: event.actorKeyId,
    keyName,
    keyIsConnection,
    session: event.sessionId,
  });
  return { version, by: authorName(author), at: event.at, reason: typeof event.detail.reason === "string" ? event.detail.reason : null };
}
