import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { teams, users, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { AppError } from "../errors";
import type { TeamId } from "../teams/teams";
import { WEBHOOK_EVENTS, type WebhookEventName } from "./events";
import { enqueueTestEvent } from "./outbox";
import { newWebhookSecret, secretPrefix } from "./signature";

/**
 * A team's webhooks (docs/learned-skills.md#webhooks-and-mail): a lead (or an admin key) registers a receiver for some
 * events, gets its signing secret once, sees every delivery with its answer, and deletes it.
 */

/** Receivers per team: each event is written once per receiver in the transaction that makes it. */
export const MAX_WEBHOOKS = 20;

export type WebhookFormat = "json" | "slack";

export interface NewWebhookInput {
  url: string;
  events: WebhookEventName[];
  /** Unset: `slack` for a Slack incoming-webhook URL, else `json`. */
  format?: WebhookFormat;
}

export interface WebhookRow {
  id: number;
  url: string;
  events: WebhookEventName[];
  format: WebhookFormat;
  /** The secret's first characters, to tell it apart; the secret itself is shown once. */
  secretPrefix: string;
  createdAt: Date;
  /** The person who made it; null when a key did (or the person is gone). */
  createdBy: string | null;
}

/** A Slack incoming-webhook URL: it takes `{"text"}` and shows it as a message. */
export function isSlackUrl(url: string): boolean {
  return new URL(url).hostname === "hooks.slack.com";
}

/** The events in the order the API lists them, each once. */
function inOrder(events: readonly string[]): WebhookEventName[] {
  return WEBHOOK_EVENTS.filter((event) => events.includes(event));
}

/**
 * Registers a webhook, one per URL in a team and at most `MAX_WEBHOOKS`: the team's row is locked,
 * so of concurrent creates past the limit or of one URL exactly those that fit are made.
 */
export async function createWebhook(
  db: Db,
  teamId: TeamId,
  input: NewWebhookInput,
  by: { userId: number | null; keyId: number | null },
): Promise<WebhookRow & { secret: string }> {
  const secret = newWebhookSecret();
  const format = input.format ?? (isSlackUrl(input.url) ? "slack" : "json");
  const events = inOrder(input.events);
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("update");
    const existing = await tx.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.teamId, teamId));
    if (existing.some((hook) => hook.url === input.url)) {
      throw new AppError("WebhookExists", `this team already has a webhook for ${input.url}; delete it first to change its events`);
    }
    if (existing.length >= MAX_WEBHOOKS) {
      throw new AppError("TooManyWebhooks", `a team has at most ${MAX_WEBHOOKS} webhooks; delete one first`);
    }
    const rows = await tx
      .insert(webhooks)
      .values({ teamId, url: input.url, events, format, secret, createdBy: by.userId, createdByKey: by.keyId })
      .returning({ id: webhooks.id, createdAt: webhooks.createdAt });
    return singleRow(rows);
  });
  const createdBy =
    by.userId === null ? null : ((await db.select({ email: users.email }).from(users).where(eq(users.id, by.userId)))[0]?.email ?? null);
  return { id: row.id, url: input.url, events, format, secret, secretPrefix: secretPrefix(secret), createdAt: row.createdAt, createdBy };
}

export async function listWebhooks(db: Db, teamId: TeamId): Promise<WebhookRow[]> {
  const rows = await db
    .select({
      id: webhooks.id,
      url: webhooks.url,
      events: webhooks.events,
      format: webhooks.format,
      secret: webhooks.secret,
      createdAt: webhooks.createdAt,
      createdBy: users.email,
    })
    .from(webhooks)
    .leftJoin(users, eq(users.id, webhooks.createdBy))
    .where(eq(webhooks.teamId, teamId))
    .orderBy(desc(webhooks.id));
  return rows.map(({ secret, ...row }) => ({ ...row, events: inOrder(row.events), secretPrefix: secretPrefix(secret) }));
}

function webhookNotFound(id: number): AppError {
  return new AppError("WebhookNotFound", `no webhook ${id} in this team`);
}

/** Deletes a webhook of this team, its deliveries and their attempts with it; any other id is not found. */
export async function deleteWebhook(db: Db, teamId: TeamId, id: number): Promise<{ id: number }> {
  const [row] = await db
    .delete(webhooks)
    .where(and(eq(webhooks.teamId, teamId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  if (!row) throw webhookNotFound(id);
  return row;
}

/** Sends a `ping` to one webhook now, through the outbox like any event. */
export async function sendTestEvent(db: Db, teamId: TeamId, id: number): Promise<{ delivery: number }> {
  const [hook] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.teamId, teamId), eq(webhooks.id, id)));
  if (!hook) throw webhookNotFound(id);
  return { delivery: await enqueueTestEvent(db, teamId, id) };
}

export interface AttemptRow {
  at: Date;
  statusCode: number | null;
  answer: string | null;
  error: string | null;
  ms: number;
}

export interface DeliveryRow {
  id: number;
  eventId: string;
  event: string;
  createdAt: Date;
  status: "pending" | "delivered" | "failed";
  /** When it is tried next; null once delivered or failed. */
  nextAttemptAt: Date | null;
  /** Every attempt, first to last. */
  attempts: AttemptRow[];
}

/** A webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  db: Db,
  teamId: TeamId,
  webhookId: number,
  page: { beforeId?: number; limit: number },
): Promise<DeliveryRow[]> {
  const [hook] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.teamId, teamId), eq(webhooks.id, webhookId)));
  if (!hook) throw webhookNotFound(webhookId);
  const d = webhookDeliveries;
  const rows = await db
    .select({ id: d.id, eventId: d.eventId, event: d.event, createdAt: d.createdAt, status: d.status, nextAttemptAt: d.nextAttemptAt })
    .from(d)
    .where(and(eq(d.teamId, teamId), eq(d.webhookId, webhookId), page.beforeId === undefined ? undefined : lt(d.id, page.beforeId)))
    .orderBy(desc(d.id))
    .limit(page.limit);
  const attempts = await attemptsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...row,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    attempts: attempts.get(row.id) ?? [],
  }));
}

async function attemptsOf(db: Db, deliveryIds: number[]): Promise<Map<number, AttemptRow[]>> {
  const byDelivery = new Map<number, AttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .select({
      deliveryId: webhookAttempts.deliveryId,
      at: webhookAttempts.at,
      statusCode: webhookAttempts.statusCode,
      answer: webhookAttempts.answer,
      error: webhookAttempts.error,
      ms: webhookAttempts.ms,
    })
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(webhookAttempts.id);
  for (const { deliveryId, ...attempt } of rows) byDelivery.set(deliveryId, [...(byDelivery.get(deliveryId) ?? []), attempt]);
  return byDelivery;
}
