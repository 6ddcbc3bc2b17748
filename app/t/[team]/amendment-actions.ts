"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { rejectAmendmentBody, reproposeAmendmentBody } from "@/lib/contracts/evolution";
import type { Role } from "@/lib/auth/scopes";
import { getAmendment } from "@/lib/evolution/amendments";
import { MOVES } from "@/lib/evolution/amendment-states";
import { startEvaluation } from "@/lib/evolution/evaluate";
import { approveAmendment, overrideAmendment, rejectAmendment } from "@/lib/evolution/promote";
import { reproposeAmendment, REGENERATE_HINT } from "@/lib/evolution/repropose";
import { isAppError, pageMessage } from "@/lib/errors";

/**
 * Every move a person makes on an amendment (docs/evaluation-and-activation.md#amendment-states), wherever it is listed: the skill page, the
 * evaluation page, the queue on the overview and the history. The same functions as the REST
 * routes, so a page and an agent meet the same rules and the same refusals. Each names the move it
 * means: Approve approves, Override overrides the state the lead saw — never the other.
 */

const on = (slug: string, role: Role) => ({ team: slug, page: `/t/${slug}/history`, role });
const amendmentId = z.number().int().min(1).max(2_000_000_000);
const withId = z.strictObject({ amendmentId });
const reasonOf = (form: FormData) => String(form.get("reason") ?? "");

/**
 * Starts an evaluation and answers at once with the evaluation page, which follows its progress:
 * the redirect carries that page in the same response, instead of rendering the page the person
 * left and then the one they go to.
 */
export async function evaluateAmendmentAction(slug: string, id: number): Promise<ActionResult> {
  const started = await memberAction(
    { ...on(slug, "editor"), schema: withId, input: { amendmentId: id } },
    async (member, input, actor) => {
      const { evaluationId } = await startEvaluation(member.app, member.team, actor, input.amendmentId);
      return {
        ok: true,
        message: `Evaluating amendment #${input.amendmentId} (evaluation #${evaluationId}).`,
        href: `/t/${slug}/history/evaluations/${evaluationId}`,
      };
    },
  );
  if (started.ok && started.href) redirect(started.href);
  return started;
}

export async function approveAmendmentAction(slug: string, id: number): Promise<ActionResult> {
  return memberAction({ ...on(slug, "lead"), schema: withId, input: { amendmentId: id } }, async (member, input, actor) => {
    const approved = await approveAmendment(member.app, member.team, actor, input.amendmentId);
    return {
      ok: true,
      message: `Approved amendment #${input.amendmentId}: ${approved.name} v${approved.version} ${whatAgentsGet(approved)}.`,
      version: approved.version,
    };
  });
}

export async function rejectAmendmentAction(
  slug: string,
  id: number,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  const input = { amendmentId: id, reason: reasonOf(form) };
  return memberAction(
    { ...on(slug, "lead"), schema: rejectAmendmentBody.extend({ amendmentId }), input },
    async (member, checked, actor) => {
      await rejectAmendment(member.app.db, member.team, actor, checked.amendmentId, checked.reason);
      return { ok: true, message: `Rejected amendment #${checked.amendmentId}: it will not go live.` };
    },
  );
}

const overrideInput = z.strictObject({
  amendmentId,
  seen: z.enum(MOVES.override.from),
  reason: z.string().trim().min(1, "say why you put it live against its verdict"),
});

/** Whether agents get the version an amendment made, or the one a lead pinned (docs/learned-skills.md#governed-promotion): a pin holds what goes live. */
function whatAgentsGet(promoted: { version: number; served: { version: number } }): string {
  return promoted.served.version === promoted.version
    ? "is live"
    : `is made, but agents keep v${promoted.served.version}, which is pinned: unpin it to put v${promoted.version} live`;
}

/** A lead puts live what was not judged improved (pending, evaluated, rejected, as the page showed it), with the reason recorded in the history. */
export async function overrideAmendmentAction(
  slug: string,
  id: number,
  seen: string,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  const input = { amendmentId: id, seen, reason: reasonOf(form) };
  return memberAction({ ...on(slug, "lead"), schema: overrideInput, input }, async (member, checked, actor) => {
    const amendment = await getAmendment(member.app.db, member.team.id, checked.amendmentId);
    const promoted = await overrideAmendment(member.app, member.team, actor, amendment, checked.reason, checked.seen);
    return {
      ok: true,
      message:
        promoted.served.version === promoted.version
          ? `Overridden: amendment #${checked.amendmentId} put ${promoted.name} v${promoted.version} live, with your reason in the history.`
          : `Overridden: amendment #${checked.amendmentId} made ${promoted.name} v${promoted.version}, but agents keep v${promoted.served.version}, which is pinned: unpin it to put v${promoted.version} live. Your reason is in the history.`,
      version: promoted.version,
    };
  });
}

/**
 * Re-proposes an out-of-date amendment against the skill's current version: merged, or with
 * `regenerate` written again by the model. A change that does not apply cleanly is said as it is,
 * marked so the page can offer the model (when one is configured).
 */
export async function reproposeAmendmentAction(slug: string, id: number, regenerate: boolean): Promise<ActionResult> {
  const input = { amendmentId: id, regenerate };
  return memberAction(
    { ...on(slug, "editor"), schema: reproposeAmendmentBody.extend({ amendmentId }), input },
    async (member, checked, actor) => {
      try {
        const made = await reproposeAmendment(member.app, member.team, actor, checked.amendmentId, { regenerate: checked.regenerate });
        return {
          ok: true,
          message: `Re-proposed amendment #${checked.amendmentId} against v${made.base}${regenerate ? ", written again by the model," : ""} as amendment #${made.id}: evaluate it to have it judged.`,
        };
      } catch (error) {
        if (!isAppError(error) || error.code !== "MergeConflict") throw error;
        const next = member.app.model
          ? "Regenerate it with the model, or propose a new amendment by hand."
          : "Propose a new amendment by hand.";
        return { ok: false, message: pageMessage(error).replace(REGENERATE_HINT, next), mergeConflict: true };
      }
    },
  );
}
