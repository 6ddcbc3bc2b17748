"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { rejectAmendmentBody } from "@/lib/contracts/evolution";
import { approveAmendment, promoteAmendment, rejectAmendment } from "@/lib/evolution/promote";

const asLead = (slug: string, evaluationId: number) => ({
  team: slug,
  page: `/t/${slug}/history/evaluations/${evaluationId}`,
  role: "lead" as const,
});

export async function approveAction(slug: string, evaluationId: number, amendmentId: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug, evaluationId), schema: z.undefined(), input: undefined }, async (member, _input, actor) => {
    const approved = await approveAmendment(member.app, member.team, actor, amendmentId);
    return { ok: true, message: `Approved: ${approved.name} v${approved.version} is live.`, version: approved.version };
  });
}

export async function rejectAction(
  slug: string,
  evaluationId: number,
  amendmentId: number,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  const input = { reason: String(form.get("reason") ?? "") };
  return memberAction({ ...asLead(slug, evaluationId), schema: rejectAmendmentBody, input }, async (member, { reason }, actor) => {
    await rejectAmendment(member.app.db, member.team, actor, amendmentId, reason);
    return { ok: true, message: `Rejected amendment #${amendmentId}: it will not go live.` };
  });
}

const overrideInput = z.strictObject({ reason: z.string().trim().min(1, "say why you put it live against its verdict") });

/** A lead puts an amendment live against its verdict, with the reason recorded in the history (§8.4). */
export async function overrideAction(
  slug: string,
  evaluationId: number,
  amendmentId: number,
  _previous: ActionResult | null,
  form: FormData,
): Promise<ActionResult> {
  const input = { reason: String(form.get("reason") ?? "") };
  return memberAction({ ...asLead(slug, evaluationId), schema: overrideInput, input }, async (member, { reason }, actor) => {
    const promoted = await promoteAmendment(member.app, member.team, actor, amendmentId, reason);
    return {
      ok: true,
      message: `Overridden: ${promoted.name} v${promoted.version} is live, with your reason in the history.`,
      version: promoted.version,
    };
  });
}
