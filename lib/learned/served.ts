import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { learnedSkillLabels, learnedSkills, skillEvents } from "@/db/schema";
import { AppError, specError } from "../errors";
import { recordListingSnapshot } from "../listing/snapshots";
import { bumpCatalogRevision } from "../skills/catalog-cache";
import { servedChoice, type Served } from "../skills/catalog";
import type { LabelName } from "../skills/label";
import { parseSkillMd } from "../skills/skill-md";
import type { TeamId } from "../teams/teams";
import { requireLead, type Actor } from "./actor";
import { eventAuthor, eventsWithAuthors, recordEvent } from "./events";
import { decisionReason } from "./reasons";
import { getLearnedVersion } from "./store";
import { partOf, writableLearned, type Deps } from "./write";

/**
 * What agents get of a learned skill, as a lead decides it (docs/learned-skills.md#one-served-version): the pin, the version every reader
 * that asks for no label gets, and labels, the versions readers that ask for one get. Which version
 * a reader then gets is `servedChoice`'s to say (lib/skills/catalog.ts). Each decision may carry a
 * reason, which the team may require (./reasons.ts), and is a history event.
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

/** Who put a skill's pin on the version it is on, when and why (docs/learned-skills.md#pins): what the skill page's first line says. */
export interface PinRecord {
  version: number;
  by: string;
  at: Date;
  reason: string | null;
}

/** The latest event that put the pin on `version`: a pin, or a rollback that moved it there. Null when the history holds none. */
export async function pinRecord(db: Db, teamId: TeamId, name: string, version: number): Promise<PinRecord | null> {
  const [row] = await eventsWithAuthors(db)
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
  return {
    version,
    by: eventAuthor(row),
    at: row.event.at,
    reason: typeof row.event.detail.reason === "string" ? row.event.detail.reason : null,
  };
}

/**
 * Labels beyond one pin: a lead puts a named label (`staging`, `canary`…) on one version of a
 * learned skill; readers that ask for the label get that version. The skill's row lock orders
 * concurrent moves, so the last one wins whole and each is logged once.
 */

export interface LabelMove {
  name: string;
  label: LabelName;
  version: number;
  /** What readers that ask for no label get: a label does not change it, and the answer says so. */
  served: Served;
}

/** `PUT /api/v1/skills/<name>/labels/<label>`: the label now marks `version`. Putting it where it already is changes nothing. */
export async function moveLabel(
  deps: Deps,
  teamId: TeamId,
  actor: Actor,
  name: string,
  label: LabelName,
  version: number,
  reason?: string | null,
): Promise<LabelMove> {
  requireLead(actor, "moving a label");
  const served = await deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    const target = await getLearnedVersion(tx, row.id, version);
    if (!target) throw specError("VersionNotFound", `'${name}' has no v${version}; it is at v${row.currentVersion}`);
    const byDefault = servedChoice(row.currentVersion, row.pinnedVersion, null);
    const was = await labelledVersion(tx, row.id, label);
    if (was === version) return byDefault;
    const why = await decisionReason(tx, teamId, reason);
    const { description } = parseSkillMd(target.frontmatter + target.body);
    await tx
      .insert(learnedSkillLabels)
      .values({ skillId: row.id, label, version, description })
      .onConflictDoUpdate({
        target: [learnedSkillLabels.skillId, learnedSkillLabels.label],
        set: { version, description, movedAt: new Date() },
      });
    await recordEvent(tx, teamId, name, "labelled", actor, version, { label, from: was, ...(why !== null && { reason: why }) });
    await bumpCatalogRevision(tx, teamId, partOf(row.status));
    return byDefault;
  });
  return { name, label, version, served };
}

/** `DELETE …/labels/<label>`: readers that ask for it get the default (pinned, else latest) again. */
export async function removeLabel(deps: Deps, teamId: TeamId, actor: Actor, name: string, label: LabelName, reason?: string | null) {
  requireLead(actor, "removing a label");
  return deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    const [removed] = await tx
      .delete(learnedSkillLabels)
      .where(and(eq(learnedSkillLabels.skillId, row.id), eq(learnedSkillLabels.label, label)))
      .returning({ version: learnedSkillLabels.version });
    if (!removed) throw new AppError("LabelNotFound", `'${name}' has no label '${label}'`);
    // Asked after the delete, in its transaction: a missing label is said first, a missing reason undoes the delete.
    const why = await decisionReason(tx, teamId, reason);
    await recordEvent(tx, teamId, name, "unlabelled", actor, removed.version, { label, ...(why !== null && { reason: why }) });
    await bumpCatalogRevision(tx, teamId, partOf(row.status));
    return { name, label, version: null, was: removed.version, served: servedChoice(row.currentVersion, row.pinnedVersion, null) };
  });
}

async function labelledVersion(tx: Db, skillId: number, label: LabelName): Promise<number | null> {
  const [row] = await tx
    .select({ version: learnedSkillLabels.version })
    .from(learnedSkillLabels)
    .where(and(eq(learnedSkillLabels.skillId, skillId), eq(learnedSkillLabels.label, label)));
  return row?.version ?? null;
}

/** A learned skill's labels, by name: what the versions table and `GET …/labels` show. */
export async function labelsOf(db: Db, skillId: number): Promise<{ label: LabelName; version: number; movedAt: Date }[]> {
  const rows = await db
    .select({ label: learnedSkillLabels.label, version: learnedSkillLabels.version, movedAt: learnedSkillLabels.movedAt })
    .from(learnedSkillLabels)
    .where(eq(learnedSkillLabels.skillId, skillId))
    .orderBy(asc(learnedSkillLabels.label));
  return rows.map((row) => ({ ...row, label: row.label as LabelName }));
}
