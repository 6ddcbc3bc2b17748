import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evaluations, type AmendmentState } from "@/db/schema";
import { isAppError, specError } from "../errors";
import { authorOf, requireLead, type Actor } from "../learned/actor";
import { recordEvent } from "../learned/events";
import { changeLearnedIn } from "../learned/write";
import { findLiveLearned, nameHolder, notLearned } from "../learned/store";
import { recordListingSnapshot } from "../listing/snapshots";
import type { Served, StaticCatalog } from "../skills/catalog";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { getAmendment, type AmendmentRow } from "./amendments";
import { amendmentStateChanged, moveAmendment, MOVES } from "./amendment-states";
import { amendmentOutdated, latestVersions } from "./outdated";
import { enqueueEvents } from "../webhooks/outbox";
import { decisionEvents } from "./webhook-events";

/**
 * A lead's decisions on an amendment (docs/evaluation-and-activation.md#amendment-states, docs/learned-skills.md#governed-promotion): approve one judged improved, reject it with a
 * reason, or put live anything else with a written reason (a manual override). Each is one
 * transaction that starts with the amendment's conditional move, so of two leads clicking approve
 * and reject at once exactly one decides, and nothing goes live after a rejection.
 */

export interface PromotionDeps {
  db: Db;
  catalogs: CatalogCache;
}

export interface Promoted {
  name: string;
  version: number;
  evaluationId: number | null;
  override: boolean;
  /** What agents get now: the promoted version, or the one a lead pinned (docs/learned-skills.md#one-served-version). */
  served: Served;
}

/**
 * `POST /api/v1/amendments/<id>/promote` (docs/evaluation-and-activation.md#amendment-states): what it means depends on the state the amendment
 * is in — awaiting approval, the lead's approval; pending, evaluated or rejected, a manual override,
 * which needs a written reason. The dashboard names the move it means (approve, override) instead.
 */
export async function promoteAmendment(
  deps: PromotionDeps,
  team: CatalogKey,
  actor: Actor,
  amendmentId: number,
  reason?: string,
): Promise<Promoted> {
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (amendment.status === "awaiting-approval") {
    requireLead(actor, "approving an amendment");
    await refuseOutdated(deps, team, amendment);
    return decideToPromote(deps, team, actor, amendment, "approve", reason?.trim() || null);
  }
  return overrideAmendment(deps, team, actor, amendment, reason ?? "", amendment.status);
}

/**
 * A lead puts live an amendment that was not judged improved — pending, evaluated or rejected —
 * with a written reason: a manual override (docs/evaluation-and-activation.md#amendment-states). `seen` is the state the lead decided on; the
 * move is conditional on it, so a form opened on an evaluated amendment never approves one that
 * has meanwhile been judged again.
 */
export async function overrideAmendment(
  deps: PromotionDeps,
  team: CatalogKey,
  actor: Actor,
  amendment: AmendmentRow,
  reason: string,
  seen: AmendmentState,
): Promise<Promoted> {
  const state = amendment.status;
  if (state !== seen || !(MOVES.override.from as readonly AmendmentState[]).includes(state)) {
    throw amendmentStateChanged(amendment.id, state, "override");
  }
  // A built-in or file skill changes in its repository: no reason makes its amendment go live here.
  const holder = await nameHolder(deps.db, deps.catalogs.statics, team.id, amendment.skillName);
  if (holder) throw notLearned(amendment.skillName, holder);
  requireLead(actor, `promoting an amendment that is ${state} (a manual override)`);
  // Overriding puts it live as it was written: over the newer version, never.
  await refuseOutdated(deps, team, amendment);
  const why = reason.trim();
  if (why === "") {
    throw specError(
      "ReasonRequired",
      `promoting amendment #${amendment.id}, which is ${state}, is a manual override: it needs a written reason`,
    );
  }
  return decideToPromote(deps, team, actor, amendment, "override", why);
}

/** `POST /api/v1/amendments/<id>/approve`: a lead puts an amendment awaiting approval live, recorded as `approved`. */
export async function approveAmendment(deps: PromotionDeps, team: CatalogKey, actor: Actor, amendmentId: number) {
  requireLead(actor, "approving an amendment");
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (amendment.status !== "awaiting-approval") throw amendmentStateChanged(amendmentId, amendment.status, "approve");
  await refuseOutdated(deps, team, amendment);
  const { name, version, evaluationId, served } = await decideToPromote(deps, team, actor, amendment, "approve", null);
  return { id: amendmentId, name, version, evaluationId, served };
}

/**
 * An amendment goes live only on the version it was written against (docs/evaluation-and-activation.md#amendment-states). Said before anything is
 * written; the promotion's own conditional update of the skill's version is what no race gets past.
 */
async function refuseOutdated(deps: PromotionDeps, team: CatalogKey, amendment: AmendmentRow): Promise<void> {
  const current = (await latestVersions(deps.catalogs, team, [amendment.skillName])).get(amendment.skillName) ?? null;
  if (current !== null && current !== amendment.baseVersion) throw amendmentOutdated(amendment, current);
}

/** `POST /api/v1/amendments/<id>/reject`: a lead refuses an amendment awaiting approval, saying why; it never goes live unless a lead later overrides. */
export async function rejectAmendment(
  db: Db,
  team: CatalogKey,
  actor: Actor,
  amendmentId: number,
  reason: string,
): Promise<{ id: number; status: "rejected" }> {
  requireLead(actor, "rejecting an amendment");
  const why = reason.trim();
  if (why === "") throw specError("ReasonRequired", `rejecting amendment #${amendmentId} needs a written reason`);
  const amendment = await getAmendment(db, team.id, amendmentId);
  const by = authorOf(actor);
  return db.transaction(async (tx) => {
    const at = new Date();
    await moveAmendment(tx, team.id, amendmentId, "reject", "rejected", {
      ...decision("rejected", actor, why, at),
      rejectedByUserId: by.userId,
      rejectedByKeyId: by.keyId,
      rejectedSession: by.sessionId,
      rejectedAt: at,
      rejectionReason: why,
    });
    await tx
      .update(evaluations)
      .set({ promotionNote: `rejected: ${why}` })
      .where(and(eq(evaluations.amendmentId, amendmentId), eq(evaluations.status, "finished")));
    await recordEvent(tx, team.id, amendment.skillName, "rejected", actor, amendment.baseVersion, { amendmentId, reason: why });
    await enqueueEvents(tx, team.id, decisionEvents(amendment, "rejected", actor, why, null));
    return { id: amendmentId, status: "rejected" as const };
  });
}

/** The decision columns an approval, rejection or override writes on the amendment. */
function decision(kind: "approved" | "rejected" | "overridden", actor: Actor, reason: string | null, at: Date) {
  const by = authorOf(actor);
  return {
    decision: kind,
    decidedByUserId: by.userId,
    decidedByKeyId: by.keyId,
    decidedSession: by.sessionId,
    decidedAt: at,
    decisionReason: reason,
  };
}

/** Approve or override: the move to promoted, the new version and the evaluation's link to it, in one transaction. */
async function decideToPromote(
  deps: PromotionDeps,
  team: CatalogKey,
  actor: Actor,
  amendment: AmendmentRow,
  move: "approve" | "override",
  reason: string | null,
): Promise<Promoted> {
  const kind = move === "override" ? "overridden" : "approved";
  const { version, latest, served } = await deps.db.transaction(async (tx) => {
    await moveAmendment(tx, team.id, amendment.id, move, "promoted", decision(kind, actor, reason, new Date()), [amendment.status]);
    // Read after the move: no evaluation of this amendment can finish any more, so this is the one it rests on.
    const latest = await latestVerdict(tx, amendment.id);
    const detail =
      kind === "overridden"
        ? { overrideReason: reason, verdict: latest?.verdict ?? null, wasState: amendment.status }
        : reason
          ? { approvalReason: reason }
          : {};
    const applied = await applyAmendmentIn(tx, deps.catalogs.statics, team, actor, amendment, latest?.id ?? null, kind, detail);
    if (latest) {
      await tx
        .update(evaluations)
        .set({
          promotedVersion: applied.version,
          promotionNote: kind === "overridden" ? `manual override: ${reason}` : "approved by a lead",
        })
        .where(eq(evaluations.id, latest.id));
    }
    await enqueueEvents(tx, team.id, decisionEvents(amendment, kind, actor, reason, applied.version));
    return { version: applied.version, latest, served: applied.served };
  });
  await recordListingSnapshot(deps.db, deps.catalogs, team.id, `amendment #${amendment.id} ${kind}`);
  return { name: amendment.skillName, version, evaluationId: latest?.id ?? null, override: kind === "overridden", served };
}

/** The amendment's latest finished evaluation: the one a promotion links to. */
async function latestVerdict(db: Db, amendmentId: number) {
  const [latest] = await db
    .select({ id: evaluations.id, verdict: evaluations.verdict })
    .from(evaluations)
    .where(and(eq(evaluations.amendmentId, amendmentId), eq(evaluations.status, "finished")))
    .orderBy(desc(evaluations.id))
    .limit(1);
  return latest ?? null;
}

/**
 * Makes the amendment the skill's next version, against the version it was written for, inside
 * the caller's transaction (the one that moves the amendment to promoted).
 */
export async function applyAmendmentIn(
  tx: Db,
  statics: StaticCatalog,
  team: CatalogKey,
  actor: Actor,
  amendment: AmendmentRow,
  evaluationId: number | null,
  event: "promoted" | "overridden" | "approved",
  detail: Record<string, unknown> = {},
): Promise<{ version: number; served: Served }> {
  try {
    return await changeLearnedIn(tx, statics, team.id, actor, amendment.skillName, {
      description: amendment.description ?? undefined,
      body: amendment.body ?? undefined,
      expected: { version: amendment.baseVersion },
      reason: `amendment #${amendment.id}: ${amendment.rationale}`,
      event,
      evaluationId,
      eventDetail: { amendmentId: amendment.id, evaluationId, ...detail },
    });
  } catch (error) {
    if (!isAppError(error) || error.code !== "VersionConflict") throw error;
    // The skill moved past the amendment's base since it was read: the amendment is out of date.
    const live = await findLiveLearned(tx, team.id, amendment.skillName);
    throw amendmentOutdated(amendment, live?.currentVersion ?? amendment.baseVersion);
  }
}
