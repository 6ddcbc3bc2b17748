import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { rereadEnv } from "@/lib/env";
import { verifySignature } from "@/lib/webhooks/signature";
import { anotherInstance, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";
import { waitUntil } from "../helpers/wait";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

/**
 * Deliveries (docs/learned-skills.md#webhooks-and-mail, issue 39) to a real receiver on this machine: signed as the spec
 * says, retried with backoff after a 5xx, given up 24 hours after the event, never in the way of
 * the request that made the event, and sent once per event whatever the number of instances.
 */

const TIMEOUT_MS = 1_500;

describe.each(testDbKinds)("webhook deliveries on %s", (kind) => {
  // Retries are due at once and a tick comes every 25 ms: the tests wait for what happens, not for time.
  const t = useTestApp(kind, { webhooks: { tickMs: 25, backoffMs: [0], timeoutMs: TIMEOUT_MS } });
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startReceiver();
    vi.stubEnv("AUTH_URL", "https://skills.example.com");
    rereadEnv();
  });
  afterEach(async () => {
    await receiver.close();
    vi.unstubAllEnvs();
    rereadEnv();
  });

  const register = async (events: string[], extra: Record<string, unknown> = {}) => {
    const res = await t.call("POST", "/api/v1/webhooks", { json: { url: `${receiver.url}/hook`, events, ...extra } });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; secret: string };
  };
  const sync = (names: string[]) =>
    t.call("POST", "/api/v1/skills/sync", {
      json: { files: names.map((name) => ({ path: `${name}/SKILL.md`, content: skillMd(name, `Does ${name}. Use when testing.`) })) },
    });
  const deliveries = (webhookId: number) =>
    t.call("GET", `/api/v1/webhooks/${webhookId}/deliveries`).then(
      (res) =>
        res.json() as Promise<{
          deliveries: { status: string; attempts: { statusCode: number | null; answer: string | null; error: string | null }[] }[];
        }>,
    );

  it("sends the event as JSON signed over the timestamp and raw body, which the receiver verifies", async () => {
    const hook = await register(["sync.finished"]);
    const res = await sync(["pdf-forms", "deploy-checks"]);
    expect(res.status).toBe(200);
    const [got] = await waitUntil(
      () => receiver.received,
      (all) => all.length === 1,
      { what: "the delivery" },
    );
    const now = Math.floor(Date.now() / 1000);
    const signature = String(got!.headers["x-skillgate-signature"]);
    expect(signature).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(verifySignature(hook.secret, signature, got!.body, now)).toBe(true);
    // Any other secret, a changed byte or an old time fails.
    expect(verifySignature(`${hook.secret}x`, signature, got!.body, now)).toBe(false);
    expect(verifySignature(hook.secret, signature, got!.body.replace("2", "3"), now)).toBe(false);
    expect(verifySignature(hook.secret, signature, got!.body, now + 3600)).toBe(false);
    const body = JSON.parse(got!.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: "sync.finished",
      time: expect.any(String),
      team: "alpha",
      data: { added: 2, updated: 0, removed: 0, invalid: 0 },
      url: "https://skills.example.com/t/alpha",
    });
    expect(got!.path).toBe("/hook");
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["x-skillgate-event"]).toBe("sync.finished");
    const row = await waitUntil(
      async () => (await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)))[0]!,
      (delivery) => delivery.status !== "pending",
      { what: "the attempt to be recorded" },
    );
    expect(got!.headers["x-skillgate-delivery"]).toBe(String(row.id));
    expect([row.status, row.attempts, row.eventId]).toEqual(["delivered", 1, body.id]);
    // An unchanged sync is no event.
    expect((await sync(["pdf-forms", "deploy-checks"])).status).toBe(200);
    expect(await t.app.db.$count(webhookDeliveries)).toBe(1);
  });

  it("tries again after a 500 twice, and records each attempt with its answer", async () => {
    receiver.answer = (n) => (n <= 2 ? { status: 500, body: `down for maintenance (${n})` } : { status: 204 });
    const hook = await register(["sync.finished"]);
    expect((await sync(["one"])).status).toBe(200);
    const listed = await waitUntil(
      () => deliveries(hook.id),
      (page) => page.deliveries[0]?.status === "delivered",
      { what: "the delivery to succeed on its third attempt" },
    );
    expect(listed.deliveries).toHaveLength(1);
    expect(listed.deliveries[0]!.attempts.map(({ statusCode, answer, error }) => ({ statusCode, answer, error }))).toEqual([
      { statusCode: 500, answer: "down for maintenance (1)", error: null },
      { statusCode: 500, answer: "down for maintenance (2)", error: null },
      { statusCode: 204, answer: null, error: null },
    ]);
    expect(receiver.received).toHaveLength(3);
    // The same event each time, signed anew.
    expect(new Set(receiver.received.map((got) => JSON.parse(got.body).id)).size).toBe(1);
    expect(new Set(receiver.received.map((got) => got.headers["x-skillgate-delivery"])).size).toBe(1);
    const [row] = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
    expect([row!.status, row!.attempts, row!.leaseOwner]).toEqual(["delivered", 3, null]);
  });

  it("never slows the request that made the event: it answers while the receiver hangs", async () => {
    receiver.answer = () => "hang";
    const hook = await register(["sync.finished"]);
    const started = Date.now();
    const res = await sync(["slow-receiver"]);
    const answeredAt = Date.now();
    expect(res.status).toBe(200);
    expect(answeredAt - started).toBeLessThan(TIMEOUT_MS);
    // The receiver got it, and had not answered when the request had.
    await waitUntil(
      () => receiver.received.length,
      (n) => n >= 1,
      { what: "the delivery to arrive" },
    );
    expect(receiver.answeredAt).toEqual([]);
    const listed = await waitUntil(
      () => deliveries(hook.id),
      (page) => (page.deliveries[0]?.attempts.length ?? 0) >= 1,
      { what: "the attempt to time out", timeoutMs: 10_000 },
    );
    expect(listed.deliveries[0]!.attempts[0]).toMatchObject({
      statusCode: null,
      answer: null,
      error: `no answer within ${TIMEOUT_MS / 1000} s`,
    });
    expect(listed.deliveries[0]!.status).toBe("pending");
  });

  it("sends a Slack-format webhook a readable message with a link", async () => {
    await register(["sync.finished"], { format: "slack" });
    expect((await sync(["a-b"])).status).toBe(200);
    const [got] = await waitUntil(
      () => receiver.received,
      (all) => all.length === 1,
      { what: "the delivery" },
    );
    expect(JSON.parse(got!.body)).toEqual({
      text: "[alpha] A sync changed the workspace: 1 added, 0 updated, 0 removed. <https://skills.example.com/t/alpha|Open in Skillgate>",
    });
  });

  it("sends each of 16 events exactly once with two instances claiming side by side", async () => {
    const hook = await register(["sync.finished"]);
    const other = anotherInstance(t.app, { webhooks: { tickMs: 25, backoffMs: [0], timeoutMs: TIMEOUT_MS } });
    try {
      // Both instances share the database, so both senders hear every notice of the 16 test events queued at once.
      const queued = await Promise.all(Array.from({ length: 16 }, () => t.call("POST", `/api/v1/webhooks/${hook.id}/test`)));
      expect(queued.map((res) => res.status)).toEqual(Array(16).fill(202));
      for (let i = 0; i < 8; i++) {
        t.app.webhooks.nudge();
        other.webhooks.nudge();
      }
      await waitUntil(
        () => receiver.received.length,
        (n) => n >= 16,
        { what: "16 deliveries" },
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ids = receiver.received.map((got) => got.headers["x-skillgate-delivery"]);
      expect(ids).toHaveLength(16);
      expect(new Set(ids).size).toBe(16);
      const rows = await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
      expect(rows.map((row) => [row.status, row.attempts])).toEqual(Array(16).fill(["delivered", 1]));
      expect(await t.app.db.$count(webhookAttempts)).toBe(16);
    } finally {
      await other.close();
    }
  });
});

describe.each(testDbKinds)("webhook retries on %s", (kind) => {
  // A minute between attempts: the test moves the row's times instead of waiting.
  const t = useTestApp(kind, { webhooks: { tickMs: 25, backoffMs: [60_000] } });
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startReceiver();
    receiver.answer = () => ({ status: 503, body: "still down" });
  });
  afterEach(() => receiver.close());

  const failOnce = async () => {
    const res = await t.call("POST", "/api/v1/webhooks", { json: { url: `${receiver.url}/hook`, events: ["sync.finished"] } });
    const hook = (await res.json()) as { id: number };
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "one/SKILL.md", content: skillMd("one", "Does one. Use when testing.") }] },
    });
    expect(sync.status).toBe(200);
    const row = await waitUntil(
      async () => (await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)))[0]!,
      (delivery) => delivery.attempts === 1,
      { what: "the first attempt to be recorded" },
    );
    return { hook, row };
  };
  const rowOf = async (id: number) => (await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;

  it("waits the backoff after a failure, but never past 24 hours after the event", async () => {
    const { row } = await failOnce();
    expect(row.status).toBe("pending");
    const wait = row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime();
    expect(wait).toBeGreaterThanOrEqual(59_000);
    expect(wait).toBeLessThanOrEqual(61_000);
    // An event nearly a day old: its next attempt is its last chance, 24 hours after it, not a minute on.
    await t.app.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '23 hours 59 minutes 50 seconds'`, nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, row.id));
    const second = await waitUntil(
      () => rowOf(row.id),
      (delivery) => delivery.attempts === 2,
      { what: "the second attempt" },
    );
    expect(second.status).toBe("pending");
    expect(second.nextAttemptAt.getTime()).toBe(second.createdAt.getTime() + 24 * 3_600_000);
    expect(receiver.received).toHaveLength(2);
  });

  it("gives up 24 hours after the event: an attempt failing past it is the last, and the delivery failed", async () => {
    const { hook, row } = await failOnce();
    await t.app.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '24 hours 1 minute'`, nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, row.id));
    await waitUntil(
      () => rowOf(row.id),
      (delivery) => delivery.status === "failed",
      { what: "the delivery to fail" },
    );
    const listed = await (await t.call("GET", `/api/v1/webhooks/${hook.id}/deliveries`)).json();
    expect(listed.deliveries).toEqual([
      {
        id: row.id,
        eventId: row.eventId,
        event: "sync.finished",
        createdAt: expect.any(String),
        status: "failed",
        nextAttemptAt: null,
        attempts: [
          { at: expect.any(String), statusCode: 503, answer: "still down", error: null, ms: expect.any(Number) },
          { at: expect.any(String), statusCode: 503, answer: "still down", error: null, ms: expect.any(Number) },
        ],
      },
    ]);
    // Nothing more is tried, however due it looks.
    await t.app.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, row.id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(2);
  });

  it("does not send to a link-local address, and says why beside the delivery", async () => {
    const [hook] = await t.app.db
      .insert(webhooks)
      .values({
        teamId: t.alpha.team.id,
        url: "http://169.254.169.254/latest/meta-data/",
        events: ["sync.finished"],
        format: "json",
        secret: "whsec_x",
      })
      .returning();
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "metadata/SKILL.md", content: skillMd("metadata", "Does metadata. Use when testing.") }] },
    });
    expect(sync.status).toBe(200);
    const listed = await waitUntil(
      async () => (await t.call("GET", `/api/v1/webhooks/${hook!.id}/deliveries`)).json(),
      (page) => (page.deliveries[0]?.attempts.length ?? 0) >= 1,
      { what: "the refused attempt" },
    );
    expect(listed.deliveries[0].attempts).toHaveLength(1);
    expect(listed.deliveries[0].status).toBe("pending");
    expect(listed.deliveries[0].attempts[0]).toMatchObject({
      statusCode: null,
      answer: null,
      error: "169.254.169.254 is a link-local address (169.254.169.254), where cloud metadata answers: Skillgate does not send there",
    });
  });
});
