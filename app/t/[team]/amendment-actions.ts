"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { rejectAmendmentBody } from "@/lib/contracts/evolution";
import { startEvaluation } from "@/lib/evolution/evaluate";
import { approveAmendment, promoteAmendment, rejectAmendment } from "@/lib/evolution/promote";
import type { Role } from "@/lib/auth/scopes";

/**
 * Every move a person makes on an amendment (§8.4), wherever it is listed: the skill page, the
 * evaluation page, the queue on the overview and the history. The same functions as the REST
 * routes, so a page and an agent meet the same rules and the same refusals.
 */

const on = (slug: string, amendmentId: number, role: Role) => ({ team: slug, page: `/t/${slug}/history/amendments/${amendmentId}`, role });
const reasonOf = (form: FormData) => ({ reason: String(form.get("reason") ?? "") });

/** Starts an evaluation and answers at once: the evaluation page follows its progress. */
export async function evaluateAmendmentAction(slug: string, amendmentId: number): Promise<ActionResult> {
  return memberAction({ ...on(slug, amendmentId, "editor"), schema: z.undefined(), input: undefined }, async (member, _input, actor) => {
    const { evaluationId } = await startEvaluation(member.app, member.team, actor, amendmentId);
    return {
      ok: true,
      message: `Evaluation #${evaluationId} of amendment #${amendmentId} started.`,
      href: `/t/${slug}/history/evaluations/${evaluationId}`,
    };
  });
}

export async function approveAmendmentAction(slug: string, amendmentId: number): Promise<ActionResult> {
  return memberAction({ ...on(slug, amendmentId, "lead"), schema: z.undefined(), input: undefined }, async (member, _input, actor) => {
    const approved = await approveAmendment(member.app, member.team, actor, amendmentId);
    return {
      ok: true,
      message: `Approved amendment #${amendmentId}: ${approved.name} v${approved.version} is live.`,
      version: approved.version,
    };
  });
}

export async function rejectAmendmentAction(
  slug: string,
  amendmentId: number,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  return memberAction(
    { ...on(slug, amendmentId, "lead"), schema: rejectAmendmentBody, input: reasonOf(form) },
    async (member, { reason }, actor) => {
      await rejectAmendment(member.app.db, member.team, actor, amendmentId, reason);
      return { ok: true, message: `Rejected amendment #${amendmentId}: it will not go live.` };
    },
  );
}

const overrideInput = z.strictObject({ reason: z.string().trim().min(1, "say why you put it live against its verdict") });

/** A lead puts live what was not judged improved (pending, evaluated, rejected), with the reason recorded in the history. */
export async function overrideAmendmentAction(
  slug: string,
  amendmentId: number,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  return memberAction(
    { ...on(slug, amendmentId, "lead"), schema: overrideInput, input: reasonOf(form) },
    async (member, { reason }, actor) => {
      const promoted = await promoteAmendment(member.app, member.team, actor, amendmentId, reason);
      return {
        ok: true,
        message: `Overridden: amendment #${amendmentId} put ${promoted.name} v${promoted.version} live, with your reason in the history.`,
        version: promoted.version,
      };
    },
  );
}
