import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import { OUTBOX_NOTICE, TEAM_CHANGES_CHANNEL } from "@/db/team-changes";
import type { TeamId } from "../teams/teams";
import { TEST_EVENT, type WebhookEvent } from "./events";

/**
 * The transactional outbox (docs/learned-skills.md#webhooks-and-mail). `enqueueEvents` is called inside the transaction that
 * makes the change, with that transaction: it writes one delivery per receiver — each of the team's
 * webhooks that asked for the event, and each lead of the team who asked to get it by mail — so a
 * delivery exists exactly when the change committed, and a change rolled back tells nobody. When it
 * wrote any, the same statement sends the outbox's notice, which PostgreSQL delivers to every
 * instance only once the transaction commits: their senders wake and one of them claims each
 * delivery (lib/webhooks/sender.ts). Nothing here waits on a receiver.
 */
export async function enqueueEvents(tx: Db, teamId: TeamId, events: readonly WebhookEvent[]): Promise<void> {
  for (const event of events) await enqueueEvent(tx, teamId, event);
}

export async function enqueueEvent(tx: Db, teamId: TeamId, { event, data }: WebhookEvent): Promise<void> {
  await tx.execute(sql`
    with receivers as (
      select id as webhook_id, null::int as user_id from webhooks
      where team_id = ${teamId} and ${event}::text = any(events)
      union all
      select null, s.user_id from mail_subscriptions s
      join memberships m on m.team_id = s.team_id and m.user_id = s.user_id and m.role = 'lead'
      where s.team_id = ${teamId} and ${event}::text = any(s.events)
    ),
    queued as (
      insert into webhook_deliveries (team_id, webhook_id, user_id, event_id, event, data)
      select ${teamId}, webhook_id, user_id, ${randomUUID()}::uuid, ${event}, ${JSON.stringify(data)}::jsonb from receivers
      returning id
    )
    ${wake()}`);
}

/** A test event for one webhook ("Send a test event"): the delivery's id. */
export async function enqueueTestEvent(db: Db, teamId: TeamId, webhookId: number): Promise<number> {
  const result = await db.execute(sql`
    with queued as (
      insert into webhook_deliveries (team_id, webhook_id, event_id, event, data)
      values (${teamId}, ${webhookId}, ${randomUUID()}::uuid, ${TEST_EVENT}, ${JSON.stringify({ webhook: webhookId })}::jsonb)
      returning id
    )
    select id, pg_notify(${TEAM_CHANGES_CHANNEL}, ${OUTBOX_NOTICE}) from queued`);
  const [row] = rowsOf<{ id: number }>(result);
  if (!row) throw new Error("the test event's insert returned no row");
  return Number(row.id);
}

/** The outbox's notice, sent when `queued` holds a row. */
function wake() {
  return sql`select pg_notify(${TEAM_CHANGES_CHANNEL}, ${OUTBOX_NOTICE}) from (select 1 from queued limit 1) as any_queued`;
}
