import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { learnedSkills, learnedSkillVersions } from "@/db/schema";
import { AppError, skillNotFound, specError } from "../errors";
import { sha256Hex } from "../hash";
import { recordListingSnapshot } from "../listing/snapshots";
import { bumpCatalogRevision, type CatalogCache, type CatalogPart } from "../skills/catalog-cache";
import { servedChoice, type Served, type StaticCatalog } from "../skills/catalog";
import { composeSkillMd, parseLearnedSkillMd, parseSkillMd, type ParsedSkill } from "../skills/skill-md";
import type { TeamId } from "../teams/teams";
import { authorOf, provenanceOf, requireLead, requireWriteActive, type Actor } from "./actor";
import { recordEvent, type SkillEventKind } from "./events";
import { decisionReason } from "./reasons";
import { enqueueEvent } from "../webhooks/outbox";
import {
  findArchivedLearned,
  findLiveLearned,
  getLearnedVersion,
  nameCollision,
  nameHolder,
  notLearned,
  skillExists,
  versionConflict,
  alreadyArchived,
  type LearnedRow,
} from "./store";

/**
 * Every change to a learned skill (docs/learned-skills.md): one transaction that writes the skill, its new immutable
 * version and an event, and bumps the catalog revision so no cached listing outlives it.
 */

export interface Deps {
  db: Db;
  catalogs: CatalogCache;
}

export type LearnedStatus = "draft" | "active";

export interface Provenance {
  kind: "agent" | "user" | "imported";
  ref: string | null;
  createdAt?: Date;
}

export interface NewLearned {
  skillMd: string;
  status: LearnedStatus;
  reason: string | null;
  provenance?: Provenance;
  forkedFrom?: string | null;
  event?: SkillEventKind;
}

/** Creates a learned skill or draft from a complete SKILL.md. */
export async function insertLearned(
  deps: Deps,
  teamId: TeamId,
  actor: Actor,
  input: NewLearned,
): Promise<{ name: string; version: 1; status: LearnedStatus }> {
  const created = await deps.db.transaction((tx) => insertLearnedIn(tx, deps.catalogs.statics, teamId, actor, input));
  if (input.status === "active") await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${created.name} created`);
  return created;
}

/** The same, inside a transaction the caller holds (an import writes many skills in one). */
export async function insertLearnedIn(
  tx: Db,
  statics: StaticCatalog,
  teamId: TeamId,
  actor: Actor,
  input: NewLearned,
): Promise<{ name: string; version: 1; status: LearnedStatus }> {
  const parsed = parseLearnedSkillMd(input.skillMd);
  if (input.status === "active") requireWriteActive(actor, 'creating a skill with status "active"');
  const provenance: Provenance = input.provenance ?? provenanceOf(actor);
  const holder = await nameHolder(tx, statics, teamId, parsed.name);
  if (holder) throw nameCollision(parsed.name, holder);
  const [skill] = await tx
    .insert(learnedSkills)
    .values({
      teamId,
      name: parsed.name,
      status: input.status,
      currentVersion: 1,
      description: parsed.description,
      sourceKind: provenance.kind,
      sourceRef: provenance.ref,
      reason: input.reason,
      forkedFrom: input.forkedFrom ?? null,
      ...(provenance.createdAt && { createdAt: provenance.createdAt }),
    })
    .onConflictDoNothing()
    .returning({ id: learnedSkills.id });
  if (!skill) throw skillExists(parsed.name);
  await insertVersion(tx, skill.id, 1, parsed, actor, { reason: input.reason, parentVersion: null, revertOf: null });
  await recordEvent(tx, teamId, parsed.name, input.event ?? "created", actor, 1, {
    status: input.status,
    forkedFrom: input.forkedFrom ?? undefined,
  });
  await bumpCatalogRevision(tx, teamId, partOf(input.status));
  return { name: parsed.name, version: 1, status: input.status };
}

export interface NewLearnedFields {
  name: string;
  description: string;
  body: string;
  status?: LearnedStatus;
  reason?: string | null;
}

/** `POST /api/v1/skills`: a draft by default (docs/learned-skills.md#drafts-and-promotion). */
export function createLearned(deps: Deps, teamId: TeamId, actor: Actor, input: NewLearnedFields) {
  const skillMd = composeSkillMd({ name: input.name, description: input.description }, input.body);
  return insertLearned(deps, teamId, actor, { skillMd, status: input.status ?? "draft", reason: input.reason ?? null });
}

async function insertVersion(
  db: Db,
  skillId: number,
  version: number,
  parsed: ParsedSkill,
  actor: Actor,
  meta: { reason: string | null; parentVersion: number | null; revertOf: number | null; evaluationId?: number | null },
): Promise<void> {
  const author = authorOf(actor);
  await db.insert(learnedSkillVersions).values({
    skillId,
    version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    sha256: sha256Hex(parsed.frontmatter + parsed.body),
    authorUserId: author.userId,
    authorKeyId: author.keyId,
    authorSession: author.sessionId,
    ...meta,
  });
}

/**
 * The live learned skill a write targets, locked for the rest of the transaction; a built-in or
 * file skill of that name refuses the write. A skill archived meanwhile (the loser of two deletes)
 * is a conflict, not a missing skill.
 */
export async function writableLearned(tx: Db, statics: StaticCatalog, teamId: TeamId, name: string): Promise<LearnedRow> {
  const holder = await nameHolder(tx, statics, teamId, name);
  if (holder) throw notLearned(name, holder);
  const row = await findLiveLearned(tx, teamId, name, { lock: true });
  if (row) return row;
  if (await findArchivedLearned(tx, teamId, name)) throw alreadyArchived(name);
  throw skillNotFound(name);
}

export interface LearnedChange {
  description?: string;
  body?: string;
  /** The version the change was made against, as a number or as that version's SHA-256 (an ETag). */
  expected: { version: number } | { sha256: string };
  reason?: string | null;
  /** An amendment applied after its evaluation is logged as promoted (or approved, or overridden), not edited. */
  event?: "edited" | "promoted" | "overridden" | "approved";
  /** The evaluation that justified this version; the version links it. */
  evaluationId?: number | null;
  eventDetail?: Record<string, unknown>;
}

export interface LearnedChanged {
  name: string;
  version: number;
  /** False when the text was already the current one: no version was made. */
  changed: boolean;
  /** Whether the skill is in the listing (its snapshot is then due once the change commits). */
  listed: boolean;
  /** What agents get after it: the new version, or the one a lead pinned. */
  served: Served;
}

/** `PUT /api/v1/skills/<name>`: a new version, only against the current one (docs/learned-skills.md#versions-and-diffs). */
export async function updateLearned(deps: Deps, teamId: TeamId, actor: Actor, name: string, change: LearnedChange) {
  const result = await deps.db.transaction((tx) => changeLearnedIn(tx, deps.catalogs.statics, teamId, actor, name, change));
  if (result.changed && result.listed) await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} edited`);
  return { name: result.name, version: result.version };
}

/**
 * The same change inside a transaction the caller holds (an amendment is applied in the
 * transaction that moves it to promoted); the caller records the listing's snapshot after commit.
 */
export async function changeLearnedIn(
  tx: Db,
  statics: StaticCatalog,
  teamId: TeamId,
  actor: Actor,
  name: string,
  change: LearnedChange,
): Promise<LearnedChanged> {
  if (change.description === undefined && change.body === undefined) {
    throw new AppError("InvalidField", "send a new description, a new body or both");
  }
  const row = await writableLearned(tx, statics, teamId, name);
  if (row.status === "active") requireWriteActive(actor, "changing an active skill");
  const expectedVersion = await expectedVersionOf(tx, row, change.expected);
  if (row.currentVersion !== expectedVersion) throw versionConflict(name, row.currentVersion, expectedVersion);
  const current = await getLearnedVersion(tx, row.id, row.currentVersion);
  if (!current) throw new Error(`learned skill "${name}" has no row for its current v${row.currentVersion}`);
  const before = parseSkillMd(current.frontmatter + current.body);
  const fields = before.fields as { name: string; description: string };
  const text = composeSkillMd({ ...fields, description: change.description ?? row.description }, change.body ?? current.body);
  const listed = row.status === "active";
  if (text === current.frontmatter + current.body)
    return { name, version: row.currentVersion, changed: false, listed, served: servedChoice(row.currentVersion, row.pinnedVersion, null) };
  const version = await advance(tx, row, expectedVersion, parseLearnedSkillMd(text, before), actor, {
    reason: change.reason ?? null,
    revertOf: null,
    evaluationId: change.evaluationId ?? null,
  });
  await recordEvent(tx, teamId, name, change.event ?? "edited", actor, version, {
    reason: change.reason ?? undefined,
    ...change.eventDetail,
  });
  return { name, version, changed: true, listed, served: servedChoice(version, row.pinnedVersion, null) };
}

async function expectedVersionOf(tx: Db, row: LearnedRow, expected: LearnedChange["expected"]): Promise<number> {
  if ("version" in expected) return expected.version;
  const [match] = await tx
    .select({ version: learnedSkillVersions.version })
    .from(learnedSkillVersions)
    .where(and(eq(learnedSkillVersions.skillId, row.id), eq(learnedSkillVersions.sha256, expected.sha256)))
    .orderBy(desc(learnedSkillVersions.version))
    .limit(1);
  if (!match)
    throw new AppError(
      "PreconditionFailed",
      `If-Match names no version of "${row.name}"; send the ETag of a version you loaded, or expectedVersion`,
    );
  return match.version;
}

/** Moves a skill from `expected` to the next version; exactly one concurrent writer gets past the update. */
async function advance(
  tx: Db,
  row: LearnedRow,
  expected: number,
  parsed: ParsedSkill,
  actor: Actor,
  meta: { reason: string | null; revertOf: number | null; evaluationId?: number | null },
): Promise<number> {
  const version = expected + 1;
  const [won] = await tx
    .update(learnedSkills)
    .set({ currentVersion: version, description: parsed.description, updatedAt: new Date() })
    .where(and(eq(learnedSkills.id, row.id), eq(learnedSkills.currentVersion, expected)))
    .returning({ id: learnedSkills.id });
  if (!won) {
    const [now] = await tx.select({ version: learnedSkills.currentVersion }).from(learnedSkills).where(eq(learnedSkills.id, row.id));
    throw versionConflict(row.name, now?.version ?? expected, expected);
  }
  await insertVersion(tx, row.id, version, parsed, actor, { ...meta, parentVersion: expected });
  await bumpCatalogRevision(tx, row.teamId as TeamId, partOf(row.status));
  return version;
}

/** `POST …/promote`: the draft becomes the active learned skill, if its name is still free (docs/learned-skills.md#drafts-and-promotion). */
export async function promoteLearned(deps: Deps, teamId: TeamId, actor: Actor, name: string) {
  requireWriteActive(actor, "promoting a draft");
  const promoted = await deps.db.transaction(async (tx) => {
    const holder = await nameHolder(tx, deps.catalogs.statics, teamId, name);
    if (holder) throw nameCollision(name, holder);
    const row = await findLiveLearned(tx, teamId, name, { lock: true });
    if (!row) throw skillNotFound(name);
    const [done] = await tx
      .update(learnedSkills)
      .set({ status: "active", updatedAt: new Date() })
      .where(and(eq(learnedSkills.id, row.id), eq(learnedSkills.status, "draft")))
      .returning({ version: learnedSkills.currentVersion, pinned: learnedSkills.pinnedVersion });
    if (!done) throw specError("NotADraft", `"${name}" is already active`);
    await recordEvent(tx, teamId, name, "promoted", actor, done.version);
    await enqueueEvent(tx, teamId, {
      event: "skill.promoted",
      data: { skill: name, version: done.version, from: "draft", amendment: null },
    });
    await bumpCatalogRevision(tx, teamId, "both");
    return done;
  });
  await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} promoted`);
  return { name, version: promoted.version, status: "active" as const, served: servedChoice(promoted.version, promoted.pinned, null) };
}

export interface RollbackRequest {
  toVersion: number;
  /** The current version the rollback was decided on: a stale one is refused (docs/learned-skills.md#rollback). */
  expectedVersion?: number;
  /** Under a pin: leave it where it is, so agents keep the pinned version (docs/learned-skills.md#rollback). */
  keepPin?: boolean;
  reason?: string | null;
}

export type RolledBack = ({ name: string; version: number; revertOf: number } | { name: string; version: number; unchanged: true }) & {
  /** What agents get now. */
  served: Served;
  /** Set when the rollback moved a lead's pin: the version it was on. */
  pinMovedFrom?: number;
};

/**
 * `POST …/rollback`: a new version with the content of v<toVersion>; nothing is deleted (docs/learned-skills.md#rollback).
 * When that content is already the current one no version is made, so a double click or a retry
 * never makes a duplicate; `expectedVersion`, like an update's, refuses a stale rollback. A
 * rollback is the lead saying "agents get this content now": a pin moves to the version that has
 * it, unless the request keeps the pin.
 */
export async function rollbackLearned(
  deps: Deps,
  teamId: TeamId,
  actor: Actor,
  name: string,
  request: RollbackRequest,
): Promise<RolledBack> {
  requireLead(actor, "rolling back");
  const { toVersion, expectedVersion } = request;
  const done = await deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    const target = await getLearnedVersion(tx, row.id, toVersion);
    if (!target) throw specError("VersionNotFound", `'${name}' has no v${toVersion}; it is at v${row.currentVersion}`);
    const current = await getLearnedVersion(tx, row.id, row.currentVersion);
    // Already there is no conflict: a retry of a rollback that went through answers what it made.
    const unchanged = current?.sha256 === target.sha256;
    const pinnedBefore = row.pinnedVersion;
    const keep = { version: row.currentVersion, unchanged, pinnedBefore, pinnedAfter: pinnedBefore, listed: false };
    if (unchanged && (pinnedBefore === null || pinnedBefore === row.currentVersion || request.keepPin)) return keep;
    if (!unchanged && expectedVersion !== undefined && row.currentVersion !== expectedVersion)
      throw versionConflict(name, row.currentVersion, expectedVersion);
    const reason = await decisionReason(tx, teamId, request.reason);
    const parsed = parseSkillMd(target.frontmatter + target.body);
    const version = unchanged
      ? row.currentVersion
      : await advance(tx, row, row.currentVersion, parsed, actor, { reason: rollbackReason(toVersion, reason), revertOf: toVersion });
    const pinnedAfter = pinnedBefore !== null && !request.keepPin ? version : pinnedBefore;
    if (pinnedAfter !== pinnedBefore) {
      await tx
        .update(learnedSkills)
        .set({ pinnedVersion: pinnedAfter, pinnedDescription: parsed.description })
        .where(eq(learnedSkills.id, row.id));
      // A new version bumped the revision already; a pin moved alone has not.
      if (unchanged) await bumpCatalogRevision(tx, teamId, partOf(row.status));
    }
    await recordEvent(tx, teamId, name, "rolled-back", actor, version, {
      revertOf: toVersion,
      from: row.currentVersion,
      ...(unchanged && { unchanged: true }),
      ...(pinnedAfter !== pinnedBefore && { pin: { from: pinnedBefore, to: pinnedAfter } }),
      ...(pinnedBefore !== null && pinnedAfter === pinnedBefore && { keptPin: pinnedBefore }),
      ...(reason !== null && { reason }),
    });
    await enqueueEvent(tx, teamId, {
      event: "skill.rolled_back",
      data: { skill: name, version, revertOf: toVersion, from: row.currentVersion, served: servedChoice(version, pinnedAfter, null) },
    });
    return { ...keep, version, pinnedAfter, listed: row.status === "active" };
  });
  if (done.listed) await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} rolled back`);
  const answer = {
    served: servedChoice(done.version, done.pinnedAfter, null),
    ...(done.pinnedBefore !== null && done.pinnedAfter !== done.pinnedBefore && { pinMovedFrom: done.pinnedBefore }),
  };
  if (done.unchanged) return { name, version: done.version, unchanged: true, ...answer };
  return { name, version: done.version, revertOf: toVersion, ...answer };
}

/** The reason a rollback's version carries: what it reverts to, and the lead's why when given. */
function rollbackReason(toVersion: number, reason: string | null): string {
  return reason === null ? `rollback to v${toVersion}` : `rollback to v${toVersion}: ${reason}`;
}

/** `DELETE /api/v1/skills/<name>`: archives; the history stays and a lead can restore it. */
export async function archiveLearned(deps: Deps, teamId: TeamId, actor: Actor, name: string) {
  const wasActive = await deps.db.transaction(async (tx) => {
    const row = await writableLearned(tx, deps.catalogs.statics, teamId, name);
    if (row.status === "active") requireWriteActive(actor, "archiving an active skill");
    const [archived] = await tx
      .update(learnedSkills)
      .set({ status: "archived", statusBeforeArchive: row.status as LearnedStatus, archivedAt: new Date() })
      .where(and(eq(learnedSkills.id, row.id), eq(learnedSkills.status, row.status)))
      .returning({ id: learnedSkills.id });
    if (!archived) throw alreadyArchived(name);
    await recordEvent(tx, teamId, name, "archived", actor, row.currentVersion, { from: row.status });
    await bumpCatalogRevision(tx, teamId, partOf(row.status));
    return row.status === "active";
  });
  if (wasActive) await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} archived`);
  return { name, status: "archived" as const };
}

/** `POST …/restore` (lead): the most recently archived skill of this name comes back as it was. */
export async function restoreLearned(deps: Deps, teamId: TeamId, actor: Actor, name: string) {
  requireLead(actor, "restoring an archived skill");
  const restored = await deps.db.transaction(async (tx) => {
    const row = await findArchivedLearned(tx, teamId, name, { lock: true });
    // Checked after the lock: the loser of two restores finds the winner's live skill.
    const live = await findLiveLearned(tx, teamId, name);
    if (live) throw skillExists(name);
    if (!row) throw specError("SkillNotFound", `No archived skill named '${name}'.`);
    const holder = await nameHolder(tx, deps.catalogs.statics, teamId, name);
    if (holder) throw nameCollision(name, holder);
    const status = row.statusBeforeArchive ?? "draft";
    const [back] = await tx
      .update(learnedSkills)
      .set({ status, archivedAt: null, statusBeforeArchive: null })
      .where(and(eq(learnedSkills.id, row.id), eq(learnedSkills.status, "archived")))
      .returning({ id: learnedSkills.id });
    if (!back) throw skillExists(name);
    await recordEvent(tx, teamId, name, "restored", actor, row.currentVersion, { status });
    await bumpCatalogRevision(tx, teamId, partOf(status));
    return { version: row.currentVersion, status };
  });
  if (restored.status === "active") await recordListingSnapshot(deps.db, deps.catalogs, teamId, `learned skill ${name} restored`);
  return { name, ...restored };
}

/** The part of the catalog a learned skill of this status is in: drafts never reach the listing. */
export function partOf(status: string): CatalogPart {
  return status === "draft" ? "drafts" : "listed";
}
