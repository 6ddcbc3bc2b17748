"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { rejectAmendmentBody } from "@/lib/contracts/evolution";
import { approveAmendment, rejectAmendment } from "@/lib/evolution/promote";

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
