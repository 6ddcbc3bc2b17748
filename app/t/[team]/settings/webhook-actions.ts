"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { createWebhookBody } from "@/lib/contracts/webhooks";
import { webhookEventName } from "@/lib/webhooks/input";
import { setMailEvents } from "@/lib/webhooks/mail-subscriptions";
import { createWebhook, deleteWebhook, sendTestEvent } from "@/lib/webhooks/webhooks";

const asLead = (slug: string) => ({ team: slug, page: `/t/${slug}/settings`, role: "lead" as const });
const nothing = z.undefined();

/** The form's boxes: the URL, the events ticked, and the Slack box (unticked: Skillgate decides by the URL). */
export async function createWebhookAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = {
    url: String(form.get("url") ?? "").trim(),
    events: form.getAll("events").map(String),
    ...(form.get("slack") === "on" ? { format: "slack" } : {}),
  };
  return memberAction({ ...asLead(slug), schema: createWebhookBody, input }, async (member, wanted) => {
    const hook = await createWebhook(member.app.db, member.team.id, wanted, { userId: member.user.id, keyId: null });
    const kind = hook.format === "slack" ? "Slack webhook" : "Webhook";
    return {
      ok: true,
      message: `${kind} added. Copy its signing secret now: it is not shown again.`,
      secret: hook.secret,
      webhookId: hook.id,
    };
  });
}

export async function deleteWebhookAction(slug: string, id: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await deleteWebhook(member.app.db, member.team.id, id);
    return { ok: true, message: "Webhook deleted: nothing more is sent to it." };
  });
}

export async function testWebhookAction(slug: string, id: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await sendTestEvent(member.app.db, member.team.id, id);
    return {
      ok: true,
      message: "Test event sent: its delivery and the receiver's answer are listed under the webhook (reload to see the answer).",
    };
  });
}

const mailForm = z.strictObject({ events: z.array(webhookEventName) });

export async function mailEventsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { events: form.getAll("events").map(String) };
  return memberAction({ ...asLead(slug), schema: mailForm, input }, async (member, { events }) => {
    const chosen = await setMailEvents(member.app.db, member.team.id, member.user.id, events);
    return {
      ok: true,
      message: chosen.length === 0 ? "No events are mailed to you." : `Mailed to ${member.user.email}: ${chosen.join(", ")}.`,
    };
  });
}
