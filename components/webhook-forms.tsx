"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { WEBHOOK_EVENTS, type WebhookEventName } from "@/lib/webhooks/events";
import { ActionButton } from "@/components/action-button";
import { ShownOnce } from "@/components/settings/shown-once";
import { KeptForm } from "@/components/ui/kept-form";
import type { FormAction } from "@/components/ui/use-kept-form";

/** What each event means, beside its name on the forms. */
const EVENT_MEANINGS: Record<WebhookEventName, string> = {
  "amendment.awaiting_approval": "an amendment awaits a lead's approval",
  "amendment.decided": "a lead approved, rejected or overrode an amendment",
  "evaluation.finished": "an evaluation has its verdict",
  "skill.promoted": "a draft or an amendment went live",
  "skill.rolled_back": "a skill was rolled back",
  "sync.finished": "a sync changed the workspace",
  "skill.only_typed": "a skill is now used only by /name",
};

/** One checkbox per event, named `events`; the chosen ones are the component's state. */
function EventBoxes({
  legend,
  chosen,
  onChange,
}: {
  legend: string;
  chosen: WebhookEventName[];
  onChange: (events: WebhookEventName[]) => void;
}) {
  return (
    <fieldset className="space-y-1 text-sm">
      <legend className="font-medium">{legend}</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event} className="flex items-start gap-2">
          <input
            type="checkbox"
            name="events"
            value={event}
            checked={chosen.includes(event)}
            onChange={(change) => onChange(change.target.checked ? [...chosen, event] : chosen.filter((e) => e !== event))}
            className="mt-1"
          />
          <span>
            <code className="text-xs">{event}</code> <span className="text-slate-600">— {EVENT_MEANINGS[event]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Register a receiver: its URL, the events it gets, and whether it takes Slack's message. The
 * signing secret shows once, while that webhook is there (`present`); a refused form keeps what was chosen.
 */
export function CreateWebhookForm({ action, present }: { action: FormAction; present: number[] }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventName[]>(["amendment.awaiting_approval"]);
  const [slack, setSlack] = useState(false);
  return (
    <KeptForm
      label="Add a webhook"
      action={action}
      onDone={() => setUrl("")}
      submit="Add webhook"
      shown={(result) =>
        result.secret &&
        result.webhookId !== undefined && (
          <ShownOnce
            title="Signing secret (shown once)"
            testId="webhook-secret"
            live={present.includes(result.webhookId)}
            note="The receiver checks X-Skillgate-Signature with it: HMAC-SHA256 over <t>.<raw body> (README, “Webhooks”)."
          >
            {result.secret}
          </ShownOnce>
        )
      }
    >
      <label className="block text-sm font-medium">
        Receiver URL
        <input
          name="url"
          type="url"
          required
          maxLength={2048}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://hooks.slack.com/services/…"
          className="mt-1 block w-full max-w-xl rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </label>
      <EventBoxes legend="Events" chosen={events} onChange={setEvents} />
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="slack" checked={slack} onChange={(event) => setSlack(event.target.checked)} className="mt-1" />
        <span>Slack format: a readable message with a link (a hooks.slack.com URL gets it anyway)</span>
      </label>
    </KeptForm>
  );
}

export function DeleteWebhookButton({ action, url }: { action: () => Promise<ActionResult>; url: string }) {
  return (
    <ActionButton
      action={action}
      confirm={`Delete the webhook to ${url}? Nothing more is sent to it.`}
      label="Delete"
      tone="danger"
      size="xs"
    />
  );
}

export function TestWebhookButton({ action, url }: { action: () => Promise<ActionResult>; url: string }) {
  return <ActionButton action={action} confirm={`Send a test event (ping) to ${url} now?`} label="Send a test event" size="xs" />;
}

/** The events this lead gets by mail, in this team. */
export function MailEventsForm({ action, chosen }: { action: FormAction; chosen: WebhookEventName[] }) {
  const [events, setEvents] = useState(chosen);
  return (
    <KeptForm label="Mail me" action={action} submit="Save">
      <EventBoxes legend="Mail me when" chosen={events} onChange={setEvents} />
    </KeptForm>
  );
}
