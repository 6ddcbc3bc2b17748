/**
 * What a lead can be told of (docs/learned-skills.md#webhooks-and-mail): each event's name, the data it carries and the
 * dashboard page it points to. Events are written to the outbox by the change that makes them
 * (lib/webhooks/outbox.ts) and sent as they are here.
 */

export const WEBHOOK_EVENTS = [
  "amendment.awaiting_approval",
  "amendment.decided",
  "evaluation.finished",
  "skill.promoted",
  "skill.rolled_back",
  "sync.finished",
  "skill.only_typed",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** The event "Send a test event" sends one webhook; nobody subscribes to it. */
export const TEST_EVENT = "ping";

/** What a lead decided on an amendment (docs/evaluation-and-activation.md#amendment-states). */
export type AmendmentDecision = "approved" | "rejected" | "overridden";

/** Each event with its data; every field is in the JSON a receiver gets under `data`. */
export type WebhookEvent =
  | {
      event: "amendment.awaiting_approval";
      data: { skill: string; amendment: number; evaluation: number; verdict: string; delta: number | null; baseVersion: number };
    }
  | {
      event: "amendment.decided";
      data: {
        skill: string;
        amendment: number;
        decision: AmendmentDecision;
        /** The person's email; null when an API key decided. */
        by: string | null;
        reason: string | null;
        /** The version it made live; null for a rejection. */
        version: number | null;
      };
    }
  | {
      event: "evaluation.finished";
      data: {
        skill: string;
        amendment: number;
        evaluation: number;
        verdict: string;
        delta: number | null;
        /** Where the verdict left the amendment: promoted, awaiting-approval or evaluated. */
        amendmentStatus: string;
      };
    }
  | {
      event: "skill.promoted";
      /** `from`: a draft made active, or an amendment made the next version. */
      data: { skill: string; version: number; from: "draft" | "amendment"; amendment: number | null };
    }
  | {
      event: "skill.rolled_back";
      /** `served`: what agents get after it (docs/learned-skills.md#rollback: a pin moves with the rollback unless kept). */
      data: { skill: string; version: number; revertOf: number; from: number; served: { version: number; why: string } };
    }
  | { event: "sync.finished"; data: { added: number; updated: number; removed: number; invalid: number } }
  | { event: "skill.only_typed"; data: { skill: string; slash: number } }
  | { event: typeof TEST_EVENT; data: { webhook: number } };

/** `sync.finished` of a sync that changed the workspace: how many folders it added, updated and removed, and how many are invalid. */
export function syncFinished(
  changes: { added: readonly unknown[]; updated: readonly unknown[]; removed: readonly unknown[] },
  invalid: number,
): WebhookEvent {
  const data = { added: changes.added.length, updated: changes.updated.length, removed: changes.removed.length, invalid };
  return { event: "sync.finished", data };
}

/** The dashboard page of an event's item, below `/t/<team>`. */
export function itemPath(event: WebhookEvent): string {
  switch (event.event) {
    case "amendment.awaiting_approval":
      // The evaluation page is where a lead approves or rejects.
      return `/history/evaluations/${event.data.evaluation}`;
    case "amendment.decided":
      return `/history/amendments/${event.data.amendment}`;
    case "evaluation.finished":
      return `/history/evaluations/${event.data.evaluation}`;
    case "skill.promoted":
    case "skill.rolled_back":
    case "skill.only_typed":
      return `/skills/${encodeURIComponent(event.data.skill)}`;
    case "sync.finished":
      return "";
    case TEST_EVENT:
      return "/settings#webhooks";
  }
}

/** The dashboard URL of an event's item. */
export function itemUrl(origin: string, team: string, event: WebhookEvent): string {
  return `${origin}/t/${encodeURIComponent(team)}${itemPath(event)}`;
}
