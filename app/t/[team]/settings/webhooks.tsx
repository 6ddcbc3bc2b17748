import type { DeliveryRow, WebhookRow } from "@/lib/webhooks/webhooks";
import type { WebhookEventName } from "@/lib/webhooks/events";
import { ActionMessageSlot } from "@/components/action-message";
import { CreateWebhookForm, DeleteWebhookButton, MailEventsForm, TestWebhookButton } from "@/components/webhook-forms";
import { Section } from "@/components/ui/section";
import { Table } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { createWebhookAction, deleteWebhookAction, mailEventsAction, testWebhookAction } from "./webhook-actions";

export interface WebhookWithDeliveries extends WebhookRow {
  /** The latest deliveries, newest first. */
  deliveries: DeliveryRow[];
}

/**
 * Webhooks (docs/learned-skills.md#webhooks-and-mail): the team's receivers, each with its latest deliveries and what the receiver
 * answered, and the form that adds one; below, the events this lead gets by mail.
 */
export function WebhooksSection({
  slug,
  hooks,
  readAt,
  mail,
}: {
  slug: string;
  hooks: WebhookWithDeliveries[];
  /** When the deliveries were read: what "next attempt" is said against. */
  readAt: Date;
  /** The events mailed to this lead; null when no mail server is configured. */
  mail: WebhookEventName[] | null;
}) {
  return (
    <Section
      headingId="webhooks"
      title="Webhooks"
      description={
        <>
          Skillgate POSTs the events you choose to each receiver as JSON, signed with its secret (
          <code>X-Skillgate-Signature: t=…,v1=…</code>, HMAC-SHA256 over <code>&lt;t&gt;.&lt;raw body&gt;</code>); a Slack incoming-webhook
          URL gets a readable message with a link. A delivery that gets no 2xx answer is tried again for 24 hours.
        </>
      }
    >
      <ActionMessageSlot>
        <CreateWebhookForm action={createWebhookAction.bind(null, slug)} present={hooks.map((hook) => hook.id)} />
        {hooks.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600" data-testid="no-webhooks">
            No webhook yet: nobody is told of anything until a lead opens the dashboard.
          </p>
        ) : (
          hooks.map((hook) => <WebhookCard key={hook.id} slug={slug} hook={hook} now={readAt} />)
        )}
      </ActionMessageSlot>
      <div className="mt-6 border-t border-slate-100 pt-4">
        <h3 className="text-sm font-semibold">Mail</h3>
        {mail ? (
          <>
            <p className="mb-2 text-sm text-slate-600">The same events, mailed to you while you are a lead of this team.</p>
            <MailEventsForm action={mailEventsAction.bind(null, slug)} chosen={mail} />
          </>
        ) : (
          <p className="text-sm text-slate-600" data-testid="no-mail-server">
            No mail server is configured: set <code>SKILLGATE_SMTP_URL</code> to have these events mailed to leads who ask.
          </p>
        )}
      </div>
    </Section>
  );
}

function WebhookCard({ slug, hook, now }: { slug: string; hook: WebhookWithDeliveries; now: Date }) {
  return (
    <article className="mt-4 rounded-md border border-slate-200 p-3" aria-label={`Webhook to ${hook.url}`} data-webhook={hook.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{hook.url}</p>
          <p className="text-xs text-slate-600">
            {hook.format === "slack" ? "Slack message" : "signed JSON"} · secret {hook.secretPrefix}… · added <When at={hook.createdAt} />
            {hook.createdBy ? ` by ${hook.createdBy}` : " by an API key"}
          </p>
          <p className="mt-1 text-xs text-slate-700">{hook.events.join(", ")}</p>
        </div>
        <div className="flex gap-2">
          <TestWebhookButton url={hook.url} action={testWebhookAction.bind(null, slug, hook.id)} />
          <DeleteWebhookButton url={hook.url} action={deleteWebhookAction.bind(null, slug, hook.id)} />
        </div>
      </div>
      {hook.deliveries.length === 0 ? (
        <p className="mt-2 text-xs text-slate-500">No deliveries yet.</p>
      ) : (
        <Table
          label={`Deliveries to ${hook.url}`}
          tableLabel="Recent deliveries"
          className="mt-3"
          head={
            <>
              <th className="py-1">Event</th>
              <th className="py-1">Event at</th>
              <th className="py-1">Status</th>
              <th className="py-1">Attempts</th>
              <th className="py-1">Answer</th>
              <th className="py-1">Next attempt</th>
            </>
          }
        >
          {hook.deliveries.map((delivery) => (
            <DeliveryRowView key={delivery.id} delivery={delivery} now={now} />
          ))}
        </Table>
      )}
    </article>
  );
}

const STATUS_LOOK = {
  delivered: "bg-emerald-50 text-emerald-800",
  pending: "bg-amber-50 text-amber-900",
  failed: "bg-red-50 text-red-800",
} as const;

function DeliveryRowView({ delivery, now }: { delivery: DeliveryRow; now: Date }) {
  const last = delivery.attempts.at(-1);
  const answer = last ? (last.error ?? [last.statusCode, last.answer].filter((part) => part !== null).join(" ")) : "—";
  return (
    <tr className="border-t border-slate-100 align-top" data-delivery={delivery.id}>
      <td className="py-1.5 font-mono text-xs whitespace-nowrap">{delivery.event}</td>
      <td className="py-1.5 text-xs whitespace-nowrap text-slate-600">
        <When at={delivery.createdAt} />
      </td>
      <td className="py-1.5">
        <span className={`rounded px-1.5 py-0.5 text-xs ${STATUS_LOOK[delivery.status]}`}>{delivery.status}</span>
      </td>
      <td className="py-1.5 text-xs">{delivery.attempts.length}</td>
      <td className="max-w-xs py-1.5 font-mono text-xs break-words" data-testid="delivery-answer">
        {answer}
      </td>
      <td className="py-1.5 text-xs whitespace-nowrap text-slate-600">
        <NextAttempt at={delivery.nextAttemptAt} now={now} />
      </td>
    </tr>
  );
}

/** When a pending delivery is tried next: "—" once it is delivered or failed; a retry seconds away is "within a minute", not "just now". */
function NextAttempt({ at, now }: { at: Date | null; now: Date }) {
  if (!at) return "—";
  return at.getTime() - now.getTime() < 60_000 ? "within a minute" : <When at={at} />;
}
