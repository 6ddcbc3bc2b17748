import { and, count, desc, eq, inArray, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { amendments, apiKeys, evaluations, users, type AmendmentState } from "@/db/schema";
import { AppError, specError } from "../errors";
import { authorName, authorOf, isConnection, namedAuthor, type Actor } from "../learned/actor";
import { recordEvent } from "../learned/events";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { composeSkillMd, parseSkillMd } from "../skills/skill-md";
import { loadSkillContent, resolveSkill, type SkillContent } from "../skills/view";
import { latestVersionOf } from "../skills/catalog";
import type { TeamId } from "../teams/teams";
import { requireModel, type ConfiguredModel } from "./model";
import { askForChange, proposalRefused } from "./proposal";
import { selectTestCases } from "./observations";
import type { Verdict } from "./verdict";
import { currencyOf, latestVersions, type Currency } from "./outdated";

/** Amendments (docs/evaluation-and-activation.md#amendments): proposed changes with no authority of their own. */

export type AmendmentRow = typeof amendments.$inferSelect;

export interface AmendmentInput {
  description?: string;
  body?: string;
  rationale: string;
}

export async function getAmendment(db: Db, teamId: TeamId, id: number): Promise<AmendmentRow> {
  const [row] = await db
    .select()
    .from(amendments)
    .where(and(eq(amendments.teamId, teamId), eq(amendments.id, id)));
  if (!row) throw specError("AmendmentNotFound", `No amendment #${id} in this team.`);
  return row;
}

/** The SKILL.md texts an evaluation compares: the version the amendment was written against, and it amended. */
export async function amendmentTexts(db: Db, catalogs: CatalogCache, team: CatalogKey, amendment: AmendmentRow) {
  const base = await loadSkillContent(db, catalogs, team, amendment.skillName, amendment.baseVersion);
  return { original: base.frontmatter + base.body, amended: amendedText(base, amendment) };
}

/** A version's SKILL.md with an amendment's description and body in place of its own. */
function amendedText(base: SkillContent, change: { description?: string | null; body?: string | null }): string {
  const { fields } = parseSkillMd(base.frontmatter + base.body);
  const own = fields as { name: string; description: string };
  return composeSkillMd({ ...own, description: change.description ?? own.description }, change.body ?? base.body);
}

/**
 * What an amendment is written against: the skill's latest version. Under a pin agents get an
 * older one, but a change is made to the latest (as an edit is), so it can go live once judged.
 */
export async function latestContent(db: Db, catalogs: CatalogCache, team: CatalogKey, name: string): Promise<SkillContent> {
  const skill = await resolveSkill(catalogs, team, name);
  return loadSkillContent(db, catalogs, team, name, latestVersionOf(skill));
}

export async function proposeAmendment(
  db: Db,
  catalogs: CatalogCache,
  team: CatalogKey,
  actor: Actor,
  name: string,
  input: AmendmentInput,
  origin: AmendmentOrigin = actor.kind === "person" ? "person" : "agent",
): Promise<{ id: number; status: "pending" }> {
  if (input.description === undefined && input.body === undefined)
    throw new AppError("InvalidField", "send a new description, a new body or both");
  if (input.rationale.trim() === "") throw new AppError("InvalidField", 'field "rationale": say why this change should help');
  const base = await latestContent(db, catalogs, team, name);
  checkAmendedText(base, input);
  const id = await db.transaction((tx) => insertAmendment(tx, team.id, actor, base, input, origin));
  return { id, status: "pending" as const };
}

export type AmendmentOrigin = AmendmentRow["origin"];

/** The amended text must be a valid skill now, not only when someone tries to apply it. */
export function checkAmendedText(base: SkillContent, change: AmendmentInput): void {
  parseSkillMd(amendedText(base, change));
}

/**
 * Writes a pending amendment against `base` and its `amended` event, inside the caller's
 * transaction; `reproposedFrom` names the out-of-date amendment it replaces.
 */
export async function insertAmendment(
  tx: Db,
  teamId: TeamId,
  actor: Actor,
  base: SkillContent,
  input: AmendmentInput,
  origin: AmendmentOrigin,
  reproposedFrom: number | null = null,
): Promise<number> {
  const author = authorOf(actor);
  const rows = await tx
    .insert(amendments)
    .values({
      teamId,
      skillName: base.name,
      skillSource: base.skill.source,
      baseVersion: base.version,
      description: input.description ?? null,
      body: input.body ?? null,
      rationale: input.rationale,
      origin,
      authorUserId: author.userId,
      authorKeyId: author.keyId,
      sessionId: author.sessionId,
      reproposedFrom,
    })
    .returning({ id: amendments.id });
  const { id } = singleRow(rows);
  await recordEvent(tx, teamId, base.name, "amended", actor, base.version, {
    amendmentId: id,
    origin,
    ...(reproposedFrom === null ? {} : { reproposedFrom }),
  });
  return id;
}

/** Asks the configured model for an amendment that addresses the skill's recent failures; a failure of the model writes nothing. */
export async function generateAmendment(
  db: Db,
  catalogs: CatalogCache,
  model: ConfiguredModel | null,
  team: CatalogKey,
  actor: Actor,
  name: string,
): Promise<{ id: number; status: "pending" }> {
  const judge = requireModel(model);
  const content = await latestContent(db, catalogs, team, name);
  const failures = await recentFailures(db, team.id, name);
  if (failures.length === 0)
    throw new AppError("Unprocessable", `"${name}" has no recorded failures to learn from; record observations first`);
  const change = await askForChange(judge, content, failures);
  try {
    return await proposeAmendment(db, catalogs, team, actor, name, change, "generated");
  } catch (error) {
    throw proposalRefused(error) ?? error;
  }
}

/** The recorded runs a generated amendment learns from: the failures (and partial runs) among the skill's test cases. */
export async function recentFailures(db: Db, teamId: TeamId, name: string) {
  return (await selectTestCases(db, teamId, name)).filter((o) => o.outcome !== "success");
}

export interface AmendmentFilter {
  ids?: number[];
  status?: AmendmentState;
  skill?: string;
  /** Newest first: only amendments with a smaller id (the previous page's last). */
  beforeId?: number;
  limit?: number;
}

/** A decision on an amendment as the dashboard and the API say it: who, when, why. */
export interface AmendmentDecision {
  by: string;
  at: string;
  reason: string | null;
}

/** An amendment as every list shows it (docs/evaluation-and-activation.md#out-of-date-amendments): its state, whether it is out of date, its latest verdict, and the lead's decisions on it. */
export interface AmendmentEntry extends Currency {
  id: number;
  skill: string;
  status: AmendmentState;
  verdict: Verdict | null;
  delta: number | null;
  createdAt: string;
  evaluatedAt: string | null;
  /** The latest decision a lead made on it, who made it, when and why. */
  decision: "approved" | "rejected" | "overridden" | null;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
  /** Its rejection, which stays after any override. */
  rejection: AmendmentDecision | null;
  author: string;
  /** The out-of-date amendment it was re-proposed from, and the one that replaced it once it was re-proposed itself. */
  reproposedFrom: number | null;
  supersededBy: number | null;
  origin: "person" | "agent" | "generated";
  rationale: string;
  /** The proposed description and body; null where it leaves them as they are. */
  description: string | null;
  body: string | null;
  /** Its latest evaluation, running or not. */
  evaluation: { id: number; status: "running" | "finished" | "failed"; verdict: Verdict | null; promotedVersion: number | null } | null;
}

const authorKey = alias(apiKeys, "author_key");
const authorUser = alias(users, "author_user");
const deciderKey = alias(apiKeys, "decider_key");
const deciderUser = alias(users, "decider_user");
const rejecterKey = alias(apiKeys, "rejecter_key");
const rejecterUser = alias(users, "rejecter_user");

/** What reading amendments needs: the database, and the catalog that says where each skill is now. */
export interface AmendmentReader {
  db: Db;
  catalogs: CatalogCache;
}

/** A team's amendments, newest first, filtered by state and skill (`GET /api/v1/amendments`, a lead's queue), each saying whether it is out of date. */
export async function listAmendments(deps: AmendmentReader, team: CatalogKey, filter: AmendmentFilter = {}): Promise<AmendmentEntry[]> {
  if (filter.ids?.length === 0) return [];
  const rows = await amendmentRows(deps.db, team.id, filter);
  const [judged, latest] = await Promise.all([
    evaluationsOf(
      deps.db,
      rows.map((row) => row.amendment.id),
    ),
    latestVersions(
      deps.catalogs,
      team,
      rows.map((row) => row.amendment.skillName),
    ),
  ]);
  return rows.map((row) => amendmentEntry(row, judged, latest.get(row.amendment.skillName) ?? null));
}

/** The amendments with the names of who wrote, decided and rejected them. */
function amendmentRows(db: Db, teamId: TeamId, filter: AmendmentFilter) {
  return db
    .select({
      amendment: amendments,
      authorEmail: authorUser.email,
      authorKeyName: authorKey.name,
      authorKeyIsConnection: isConnection(authorKey),
      deciderEmail: deciderUser.email,
      deciderKeyName: deciderKey.name,
      deciderKeyIsConnection: isConnection(deciderKey),
      rejecterEmail: rejecterUser.email,
      rejecterKeyName: rejecterKey.name,
      rejecterKeyIsConnection: isConnection(rejecterKey),
    })
    .from(amendments)
    .leftJoin(authorUser, eq(authorUser.id, amendments.authorUserId))
    .leftJoin(authorKey, eq(authorKey.id, amendments.authorKeyId))
    .leftJoin(deciderUser, eq(deciderUser.id, amendments.decidedByUserId))
    .leftJoin(deciderKey, eq(deciderKey.id, amendments.decidedByKeyId))
    .leftJoin(rejecterUser, eq(rejecterUser.id, amendments.rejectedByUserId))
    .leftJoin(rejecterKey, eq(rejecterKey.id, amendments.rejectedByKeyId))
    .where(
      and(
        eq(amendments.teamId, teamId),
        filter.ids !== undefined ? inArray(amendments.id, filter.ids) : undefined,
        filter.status ? eq(amendments.status, filter.status) : undefined,
        filter.skill ? eq(amendments.skillName, filter.skill) : undefined,
        filter.beforeId !== undefined ? lt(amendments.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(amendments.id))
    .limit(filter.limit ?? 500);
}

type AmendmentRowWithNames = Awaited<ReturnType<typeof amendmentRows>>[number];

/** The evaluations of these amendments, newest first. */
async function evaluationsOf(db: Db, amendmentIds: number[]) {
  if (amendmentIds.length === 0) return [];
  return db
    .select({
      id: evaluations.id,
      amendmentId: evaluations.amendmentId,
      status: evaluations.status,
      verdict: evaluations.verdict,
      delta: evaluations.delta,
      promotedVersion: evaluations.promotedVersion,
      finishedAt: evaluations.finishedAt,
    })
    .from(evaluations)
    .where(inArray(evaluations.amendmentId, amendmentIds))
    .orderBy(desc(evaluations.id));
}

function amendmentEntry(
  row: AmendmentRowWithNames,
  judged: Awaited<ReturnType<typeof evaluationsOf>>,
  current: number | null,
): AmendmentEntry {
  const a = row.amendment;
  const latest = judged.find((e) => e.amendmentId === a.id) ?? null;
  const finished = judged.find((e) => e.amendmentId === a.id && e.status === "finished") ?? null;
  const named = (
    userId: number | null,
    email: string | null,
    keyId: number | null,
    [keyName, keyIsConnection]: [string | null, boolean | null],
    session: string | null,
  ) => authorName(namedAuthor({ userId, email, keyId, keyName, keyIsConnection, session }));
  return {
    id: a.id,
    skill: a.skillName,
    status: a.status,
    verdict: finished?.verdict ?? null,
    delta: finished?.delta ?? null,
    createdAt: a.createdAt.toISOString(),
    evaluatedAt: finished?.finishedAt?.toISOString() ?? null,
    decision: a.decision,
    decidedBy: a.decidedAt
      ? named(a.decidedByUserId, row.deciderEmail, a.decidedByKeyId, [row.deciderKeyName, row.deciderKeyIsConnection], a.decidedSession)
      : null,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    reason: a.decisionReason,
    rejection: a.rejectedAt
      ? {
          by: named(
            a.rejectedByUserId,
            row.rejecterEmail,
            a.rejectedByKeyId,
            [row.rejecterKeyName, row.rejecterKeyIsConnection],
            a.rejectedSession,
          ),
          at: a.rejectedAt.toISOString(),
          reason: a.rejectionReason,
        }
      : null,
    author: named(a.authorUserId, row.authorEmail, a.authorKeyId, [row.authorKeyName, row.authorKeyIsConnection], a.sessionId),
    ...currencyOf(a, current),
    reproposedFrom: a.reproposedFrom,
    supersededBy: a.supersededBy,
    origin: a.origin,
    rationale: a.rationale,
    description: a.description,
    body: a.body,
    evaluation: latest && { id: latest.id, status: latest.status, verdict: latest.verdict, promotedVersion: latest.promotedVersion },
  };
}

/**
 * How many amendments wait for a lead's approval and can still be approved (the navigation's
 * count), and how many wait but are out of date: those can only be re-proposed (docs/evaluation-and-activation.md#out-of-date-amendments).
 */
export async function awaitingApprovalCounts(deps: AmendmentReader, team: CatalogKey): Promise<{ approvable: number; outdated: number }> {
  const groups = await deps.db
    .select({ skill: amendments.skillName, base: amendments.baseVersion, n: count() })
    .from(amendments)
    .where(and(eq(amendments.teamId, team.id), eq(amendments.status, "awaiting-approval")))
    .groupBy(amendments.skillName, amendments.baseVersion);
  const latest = await latestVersions(
    deps.catalogs,
    team,
    groups.map((group) => group.skill),
  );
  const counts = { approvable: 0, outdated: 0 };
  for (const group of groups) {
    const { outdated } = currencyOf({ status: "awaiting-approval", baseVersion: group.base }, latest.get(group.skill) ?? null);
    counts[outdated ? "outdated" : "approvable"] += group.n;
  }
  return counts;
}

/** The navigation's count: amendments a lead can approve now. */
export async function awaitingApprovalCount(deps: AmendmentReader, team: CatalogKey): Promise<number> {
  return (await awaitingApprovalCounts(deps, team)).approvable;
}

/** A lead's queue: how many amendments await approval (and how many of those are out of date), and the newest of them. */
export async function awaitingApproval(
  deps: AmendmentReader,
  team: CatalogKey,
  limit: number,
): Promise<{ total: number; outdated: number; entries: AmendmentEntry[] }> {
  const [counts, entries] = await Promise.all([
    awaitingApprovalCounts(deps, team),
    listAmendments(deps, team, { status: "awaiting-approval", limit }),
  ]);
  return { total: counts.approvable, outdated: counts.outdated, entries };
}
