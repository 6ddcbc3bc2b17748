import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { amendments } from "@/db/schema";
import type { Actor } from "../learned/actor";
import type { AmendmentDecision, WebhookEvent } from "../webhooks/events";
import type { AmendmentRow } from "./amendments";

/** The events of an amendment's life that leads are told of (docs/learned-skills.md#webhooks-and-mail), each written in the transaction that makes it. */

/**
 * An evaluation's end: it finished with its verdict, and where that left the amendment — awaiting
 * a lead's approval, or live as the skill's next version. Read after the move, in the same
 * transaction: the state it names is the one that commits.
 */
export async function evaluationEvents(
  tx: Db,
  amendment: AmendmentRow,
  evaluationId: number,
  result: { verdict: string; delta: number | null },
  promotedVersion: number | null,
): Promise<WebhookEvent[]> {
  const { status } = singleRow(await tx.select({ status: amendments.status }).from(amendments).where(eq(amendments.id, amendment.id)));
  const about = {
    skill: amendment.skillName,
    amendment: amendment.id,
    evaluation: evaluationId,
    verdict: result.verdict,
    delta: result.delta,
  };
  const events: WebhookEvent[] = [{ event: "evaluation.finished", data: { ...about, amendmentStatus: status } }];
  if (status === "awaiting-approval") {
    events.push({ event: "amendment.awaiting_approval", data: { ...about, baseVersion: amendment.baseVersion } });
  }
  if (promotedVersion !== null) events.push(promotedEvent(amendment, promotedVersion));
  return events;
}

/** A lead's decision (docs/evaluation-and-activation.md#amendment-states), and for an approval or an override the version it made live. */
export function decisionEvents(
  amendment: AmendmentRow,
  decision: AmendmentDecision,
  actor: Actor,
  reason: string | null,
  version: number | null,
): WebhookEvent[] {
  const by = actor.kind === "person" ? actor.email : null;
  const decided: WebhookEvent = {
    event: "amendment.decided",
    data: { skill: amendment.skillName, amendment: amendment.id, decision, by, reason, version },
  };
  return version === null ? [decided] : [decided, promotedEvent(amendment, version)];
}

function promotedEvent(amendment: AmendmentRow, version: number): WebhookEvent {
  return { event: "skill.promoted", data: { skill: amendment.skillName, version, from: "amendment", amendment: amendment.id } };
}
