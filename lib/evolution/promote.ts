import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { amendments, evaluations } from "@/db/schema";
import { AppError, specError } from "../errors";
import { recordEvent } from "../learned/events";
import { requireLead, requireWriteActive, type Actor } from "../learned/actor";
import { nameHolder, notLearned } from "../learned/store";
import type { CatalogCache } from "../skills/catalog-cache";
import type { EvaluationTeam } from "./evaluate";
import { getAmendment } from "./amendments";
import { applyAmendment } from "./evaluate";

/**
 * Promotes an amendment by hand (§8.4, §10). One awaiting approval (judged `improved` while the
 * team's auto-promotion is off) is a lead's approval; any other not judged `improved` is a lead's
 * manual override and needs a written reason; an improved one of a team that promotes on its own
 * (promotion failed, say, on a conflict) needs an editor.
 */
export async function promoteAmendment(
  deps: { db: Db; catalogs: CatalogCache },
  team: EvaluationTeam,
  actor: Actor,
  amendmentId: number,
  reason?: string,
): Promise<{ name: string; version: number; evaluationId: number | null; override: boolean }> {
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (amendment.status === "promoted") throw specError("AlreadyPromoted", `amendment #${amendmentId} is already promoted`);
  const [latest] = await deps.db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.amendmentId, amendmentId), eq(evaluations.status, "finished")))
    .orderBy(desc(evaluations.id))
    .limit(1);
  const override = latest?.verdict !== "improved";
  const approval = amendment.status === "awaiting-approval";
  const overrideReason = reason?.trim() ?? "";
  if (approval) {
    requireLead(actor, "approving an amendment");
  } else if (override) {
    requireLead(actor, "promoting an amendment its evaluation did not find improved");
    if (overrideReason === "") {
      throw specError(
        "ReasonRequired",
        `promoting amendment #${amendmentId} against its verdict (${latest?.verdict ?? "not evaluated"}) needs a written reason`,
      );
    }
  } else {
    requireWriteActive(actor, "promoting an amendment");
  }
  const holder = await nameHolder(deps.db, deps.catalogs.statics, team.id, amendment.skillName);
  if (holder) throw notLearned(amendment.skillName, holder);
  const evaluationId = latest?.id ?? null;
  const event = approval ? "approved" : override ? "overridden" : "promoted";
  const { version } = await applyAmendment(deps, team, actor, amendment, evaluationId, event, {
    ...(override && { overrideReason, verdict: latest?.verdict ?? null }),
  });
  if (evaluationId !== null) {
    await deps.db
      .update(evaluations)
      .set({
        promotedVersion: version,
        promotionNote: approval ? `approved by ${actorLabel(actor)}` : override ? `manual override: ${overrideReason}` : null,
      })
      .where(eq(evaluations.id, evaluationId));
  }
  return { name: amendment.skillName, version, evaluationId, override };
}

/** A lead approves an amendment awaiting approval: it becomes the skill's next version, recorded as `approved` (§10). */
export async function approveAmendment(deps: { db: Db; catalogs: CatalogCache }, team: EvaluationTeam, actor: Actor, amendmentId: number) {
  requireLead(actor, "approving an amendment");
  const amendment = await getAmendment(deps.db, team.id, amendmentId);
  if (amendment.status !== "awaiting-approval") {
    throw new AppError("NotAwaitingApproval", `amendment #${amendmentId} is not awaiting approval (it is ${amendment.status})`);
  }
  const { name, version, evaluationId } = await promoteAmendment(deps, team, actor, amendmentId);
  return { id: amendmentId, name, version, evaluationId };
}

/** A lead rejects an amendment awaiting approval, with a reason; it is recorded in the history (§10). */
export async function rejectAmendment(
  db: Db,
  team: EvaluationTeam,
  actor: Actor,
  amendmentId: number,
  reason: string,
): Promise<{ id: number; status: "rejected" }> {
  requireLead(actor, "rejecting an amendment");
  const why = reason.trim();
  if (why === "") throw specError("ReasonRequired", `rejecting amendment #${amendmentId} needs a written reason`);
  return db.transaction(async (tx) => {
    const amendment = await getAmendment(tx, team.id, amendmentId);
    const rows = await tx
      .update(amendments)
      .set({ status: "rejected" })
      .where(and(eq(amendments.id, amendmentId), eq(amendments.status, "awaiting-approval")))
      .returning({ id: amendments.id });
    if (rows.length === 0) {
      throw new AppError("NotAwaitingApproval", `amendment #${amendmentId} is not awaiting approval (it is ${amendment.status})`);
    }
    await tx
      .update(evaluations)
      .set({ promotionNote: `rejected by a lead: ${why}` })
      .where(and(eq(evaluations.amendmentId, amendmentId), eq(evaluations.status, "finished")));
    await recordEvent(tx, team.id, amendment.skillName, "rejected", actor, amendment.baseVersion, { amendmentId, reason: why });
    return { id: amendmentId, status: "rejected" as const };
  });
}

/** Who did it, as the evaluation page says it. */
function actorLabel(actor: Actor): string {
  if (actor.kind === "person") return actor.email;
  if (actor.kind === "key") return `API key ${actor.keyId}`;
  return "Skillgate";
}
