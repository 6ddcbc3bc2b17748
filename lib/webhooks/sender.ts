import type { Db } from "@/db/client";
import { asLongWork } from "@/db/budget";
import { isUnanswered } from "@/db/outage";
import type { TeamChangeFeed } from "@/db/team-changes";
import { env } from "../env";
import { logUnexpected } from "../log";
import type { Mailer } from "../mail/mailer";
import { linkOrigin } from "../public-url";
import type { InstanceWork } from "../jobs/work";
import { forbiddenReceiver } from "./address";
import { itemUrl } from "./events";
import { eventMail, slackMessage } from "./messages";
import { claimDue, recordAttempt, releaseDeliveryLeases, type AttemptOutcome, type DueDelivery, type RetrySchedule } from "./queue";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from "./signature";

export interface WebhookOptions extends RetrySchedule {
  /** How often each instance looks for due deliveries besides the outbox's notices; 0: only on notices. */
  tickMs: number;
  /** How long a receiver (or the mail server) has to answer. */
  timeoutMs: number;
  /** Deliveries in flight at once on one instance. */
  concurrency: number;
}

/** 10 s, 1 min, 5 min, 30 min, 2 h, then every 4 h: eleven attempts in the 24 hours after an event. */
export const DEFAULT_BACKOFF_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 14_400_000] as const;
export const RETRY_FOR_MS = 24 * 3_600_000;

/**
 * The defaults around a lease of `leaseMs` (SKILLGATE_LEASE_SECONDS): a receiver gets at most a third
 * of the lease to answer, so a send is recorded well before another instance could take it over;
 * the tick comes every half-lease, at most every 5 s.
 */
export function webhookOptions(leaseMs: number, given: Partial<WebhookOptions> = {}): WebhookOptions {
  return {
    tickMs: Math.min(5_000, leaseMs / 2),
    timeoutMs: Math.min(10_000, Math.floor(leaseMs / 3)),
    backoffMs: DEFAULT_BACKOFF_MS,
    retryForMs: RETRY_FOR_MS,
    concurrency: 4,
    ...given,
  };
}

/** The characters of an answer kept with its attempt. */
export const ANSWER_EXCERPT = 500;
const USER_AGENT = "Skillgate-Webhooks/1";

/**
 * One instance's sender (docs/learned-skills.md#webhooks-and-mail). It wakes on the outbox's notice, which every instance
 * hears when a transaction that wrote deliveries commits, and on a tick (for retries that come due,
 * and where notices cannot be heard), then claims due deliveries one at a time under a lease,
 * sends each, and records the attempt. The work runs beside requests, never inside one: the request
 * that made an event has answered before its delivery is even claimed.
 */
export class WebhookSender {
  private readonly slots = new Set<Promise<void>>();
  /** A notice came while every slot was busy: look again when one ends. */
  private again = false;
  private closed = false;
  private readonly closing = new AbortController();
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly work: InstanceWork,
    private readonly mailer: Mailer | null,
    readonly options: WebhookOptions,
  ) {}

  start(feed: TeamChangeFeed | null): void {
    if (feed) this.stops.push(feed.onOutbox(() => this.nudge()));
    if (this.options.tickMs > 0) this.stops.push(this.work.every(this.options.tickMs, "sending webhooks", async () => this.nudge()));
  }

  /** Looks for due deliveries now, in the background: never awaited, never throws. */
  nudge(): void {
    if (this.closed) return;
    if (this.slots.size >= this.options.concurrency) {
      this.again = true;
      return;
    }
    const slot: Promise<void> = asLongWork(() => this.sendWhileDue())
      .catch((error: unknown) =>
        isUnanswered(error) ? this.work.outages.failed("sending webhooks", error) : logUnexpected("sending webhooks", error),
      )
      .finally(() => {
        this.slots.delete(slot);
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
    this.slots.add(slot);
  }

  /** Stops looking, cuts the sends in flight short and ends their leases, so another instance sends them at once. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stops) stop();
    this.closing.abort();
    await Promise.allSettled([...this.slots]);
    await releaseDeliveryLeases(this.db, this.work).catch(() => {
      // The database is away: the leases run out on their own.
    });
  }

  private async sendWhileDue(): Promise<void> {
    while (!this.closed) {
      const due = await claimDue(this.db, this.work);
      if (!due) return;
      this.work.outages.recovered("sending webhooks");
      // More may be due: another slot looks, up to the limit, while this one sends.
      this.nudge();
      const outcome = due.to.kind === "webhook" ? await this.post(due, due.to) : await this.mail(due, due.to.email);
      // Cut short by the shutdown: no attempt to record; the lease ends at close.
      if (this.closing.signal.aborted) return;
      await recordAttempt(this.db, due, outcome, this.options);
    }
  }

  private async post(due: DueDelivery, to: Extract<DueDelivery["to"], { kind: "webhook" }>): Promise<AttemptOutcome> {
    const url = itemUrl(this.origin(), due.team, due.event);
    const payload =
      to.format === "slack"
        ? slackMessage(due.team, due.event, url)
        : { id: due.eventId, event: due.event.event, time: due.createdAt.toISOString(), team: due.team, data: due.event.data, url };
    const body = JSON.stringify(payload);
    const started = performance.now();
    const forbidden = await forbiddenReceiver(new URL(to.url));
    if (forbidden) return { ok: false, statusCode: null, answer: null, error: forbidden, ms: elapsed(started) };
    const { signal, done } = this.deadline();
    try {
      const res = await fetch(to.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          [EVENT_HEADER]: due.event.event,
          [DELIVERY_HEADER]: String(due.id),
          [SIGNATURE_HEADER]: signatureHeader(to.secret, Math.floor(Date.now() / 1000), body),
        },
        body,
        // A redirect is an answer, not a new address to send the team's events to.
        redirect: "manual",
        signal,
      });
      const answer = await readExcerpt(res);
      return { ok: res.status >= 200 && res.status < 300, statusCode: res.status, answer, error: null, ms: elapsed(started) };
    } catch (error) {
      return { ok: false, statusCode: null, answer: null, error: sendFailure(error, this.options.timeoutMs), ms: elapsed(started) };
    } finally {
      done();
    }
  }

  /**
   * Ends a send at the time-out or the shutdown. A timer of its own, held until the send is over:
   * Node may collect an `AbortSignal.timeout` that only `AbortSignal.any` refers to, and then it
   * never fires (seen here as a receiver that hung one send for good).
   */
  private deadline(): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`no answer within ${this.options.timeoutMs} ms`, "TimeoutError")),
      this.options.timeoutMs,
    );
    const onClose = () => controller.abort(new DOMException("the instance is closing", "AbortError"));
    this.closing.signal.addEventListener("abort", onClose, { once: true });
    return {
      signal: controller.signal,
      done: () => {
        clearTimeout(timer);
        this.closing.signal.removeEventListener("abort", onClose);
      },
    };
  }

  private async mail(due: DueDelivery, to: string): Promise<AttemptOutcome> {
    const started = performance.now();
    if (!this.mailer) {
      return { ok: false, statusCode: null, answer: null, error: "no mail server is configured (SKILLGATE_SMTP_URL)", ms: 0 };
    }
    const origin = this.origin();
    const settings = `${origin}/t/${encodeURIComponent(due.team)}/settings#webhooks`;
    try {
      await this.mailer.send({ to, ...eventMail(due.team, due.event, itemUrl(origin, due.team, due.event), settings) });
      return { ok: true, statusCode: null, answer: `mailed to ${to}`, error: null, ms: elapsed(started) };
    } catch (error) {
      return { ok: false, statusCode: null, answer: null, error: `the mail server refused: ${messageOf(error)}`, ms: elapsed(started) };
    }
  }

  /** Where links in deliveries start: the public URL (lib/public-url.ts), read when sending. */
  private origin(): string {
    return linkOrigin(env(), new Headers()).origin;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** The start of an answer's body: read up to a few kilobytes, then the rest is dropped unread. */
async function readExcerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < ANSWER_EXCERPT * 4) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const text = Buffer.concat(chunks).toString("utf8").slice(0, ANSWER_EXCERPT);
  return text === "" ? null : text;
}

/** Why there was no answer, in a sentence a lead reads beside the delivery. */
function sendFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `could not reach the receiver: ${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return `could not reach the receiver: ${messageOf(error)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
