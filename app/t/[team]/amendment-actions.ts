"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { rejectAmendmentBody } from "@/lib/contracts/evolution";
import type { Role } from "@/lib/auth/scopes";
import { getAmendment } from "@/lib/evolution/amendments";
import { MOVES } from "@/lib/evolution/amendment-states";
import { startEvaluation } from "@/lib/evolution/evaluate";
import { approveAmendment, overrideAmendment, rejectAmendment } from "@/lib/evolution/promote";

/**
 * Every move a person makes on an amendment (§8.4), wherever it is listed: the skill page, the
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
      message: `Approved amendment #${input.amendmentId}: ${approved.name} v${approved.version} is live.`,
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
      message: `Overridden: amendment #${checked.amendmentId} put ${promoted.name} v${promoted.version} live, with your reason in the history.`,
      version: promoted.version,
    };
  });
}
