import { and, eq, isNotNull, like, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { teams, users, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { leaseEnd, leaseToken } from "../jobs/leases";
import type { InstanceWork } from "../jobs/work";
import type { WebhookEvent } from "./events";

/**
 * The outbox's rows as the sender works them: claim one that is due under a lease, record how its
 * attempt went. Times are the database's, so instances whose clocks differ agree on what is due.
 */

export type Receiver = { kind: "webhook"; url: string; secret: string; format: "json" | "slack" } | { kind: "mail"; email: string };

export interface DueDelivery {
  id: number;
  /** The owner token of this claim: only it may record the attempt. */
  token: string;
  team: string;
  eventId: string;
  event: WebhookEvent;
  createdAt: Date;
  /** Attempts made before this one. */
  attempts: number;
  to: Receiver;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  answer: string | null;
  error: string | null;
  ms: number;
}

/**
 * Claims the delivery due first (pending, its time come, no live lease) with a new lease, and reads
 * what sending it needs; null when none is due. SKIP LOCKED lets instances claim side by side: of
 * any number claiming at once, each gets a different row or none.
 */
export async function claimDue(db: Db, work: InstanceWork): Promise<DueDelivery | null> {
  const d = webhookDeliveries;
  const token = leaseToken(work);
  const [claimed] = await db
    .update(d)
    .set({ leaseOwner: token, leaseUntil: leaseEnd(work) })
    .where(
      eq(
        d.id,
        sql`(select ${d.id} from ${d} where ${d.status} = 'pending' and ${d.nextAttemptAt} <= clock_timestamp()
               and (${d.leaseUntil} is null or ${d.leaseUntil} < clock_timestamp())
             order by ${d.nextAttemptAt}, ${d.id} limit 1 for update skip locked)`,
      ),
    )
    .returning({ id: d.id });
  if (!claimed) return null;
  const [row] = await db
    .select({
      id: d.id,
      eventId: d.eventId,
      event: d.event,
      data: d.data,
      createdAt: d.createdAt,
      attempts: d.attempts,
      team: teams.slug,
      url: webhooks.url,
      secret: webhooks.secret,
      format: webhooks.format,
      email: users.email,
    })
    .from(d)
    .innerJoin(teams, eq(teams.id, d.teamId))
    .leftJoin(webhooks, eq(webhooks.id, d.webhookId))
    .leftJoin(users, eq(users.id, d.userId))
    .where(eq(d.id, claimed.id));
  // Its webhook was deleted meanwhile, which deleted the row too.
  if (!row) return null;
  const to: Receiver | null =
    row.url !== null && row.secret !== null && row.format !== null
      ? { kind: "webhook", url: row.url, secret: row.secret, format: row.format }
      : row.email !== null
        ? { kind: "mail", email: row.email }
        : null;
  if (!to) return null;
  const event = { event: row.event, data: row.data } as WebhookEvent;
  return { id: row.id, token, team: row.team, eventId: row.eventId, event, createdAt: row.createdAt, attempts: row.attempts, to };
}

/** When a failed delivery is tried again, and until when it is tried at all. */
export interface RetrySchedule {
  /** Wait after the 1st, 2nd, … failed attempt; the last one repeats. */
  backoffMs: readonly number[];
  /** How long after the event a delivery is tried; a failure at or past it is final. */
  retryForMs: number;
}

/**
 * Records an attempt, if this claim still holds the delivery: delivered on a 2xx; otherwise tried
 * again after the backoff (never later than the last chance, `retryForMs` after the event), or
 * failed once that has passed. The lease ends either way. A claim that lost its lease (it ran past
 * it, another instance took the delivery) records nothing: the delivery is that instance's now.
 */
export async function recordAttempt(db: Db, delivery: DueDelivery, outcome: AttemptOutcome, schedule: RetrySchedule): Promise<boolean> {
  const d = webhookDeliveries;
  const delayMs = schedule.backoffMs[Math.min(delivery.attempts, schedule.backoffMs.length - 1)] ?? 0;
  const lastChance = sql`${d.createdAt} + ${schedule.retryForMs}::int * interval '1 millisecond'`;
  return db.transaction(async (tx) => {
    const [kept] = await tx
      .update(d)
      .set({
        attempts: sql`${d.attempts} + 1`,
        lastAttemptAt: sql`clock_timestamp()`,
        status: outcome.ok ? "delivered" : sql`case when clock_timestamp() >= ${lastChance} then 'failed' else 'pending' end`,
        deliveredAt: outcome.ok ? sql`clock_timestamp()` : null,
        nextAttemptAt: outcome.ok
          ? sql`${d.nextAttemptAt}`
          : sql`least(clock_timestamp() + ${delayMs}::int * interval '1 millisecond', ${lastChance})`,
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(and(eq(d.id, delivery.id), eq(d.leaseOwner, delivery.token)))
      .returning({ id: d.id });
    if (!kept) return false;
    const { statusCode, answer, error, ms } = outcome;
    await tx.insert(webhookAttempts).values({ deliveryId: delivery.id, statusCode, answer, error, ms });
    return true;
  });
}

/** On a clean shutdown: the leases this instance holds on deliveries end now. */
export async function releaseDeliveryLeases(db: Db, work: InstanceWork): Promise<void> {
  const d = webhookDeliveries;
  await db
    .update(d)
    .set({ leaseUntil: sql`clock_timestamp()` })
    .where(and(eq(d.status, "pending"), isNotNull(d.leaseOwner), like(d.leaseOwner, `${work.instanceId}:%`)));
}
