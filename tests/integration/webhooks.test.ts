import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * Webhooks through the API (docs/learned-skills.md#webhooks-and-mail, issue 39): a lead registers a receiver for some events, gets its
 * signing secret once, lists and deletes it; bad input is a 400 that says what to fix and writes
 * nothing; every change is raced by 16 requests at once.
 */

const EVENTS = [
  "amendment.awaiting_approval",
  "amendment.decided",
  "evaluation.finished",
  "skill.promoted",
  "skill.rolled_back",
  "sync.finished",
  "skill.only_typed",
];
const EVENT_LIST = EVENTS.join(", ");

describe.each(testDbKinds)("webhooks through the API on %s", (kind) => {
  const t = useTestApp(kind);
  const rows = () => t.app.db.select().from(webhooks).where(eq(webhooks.teamId, t.alpha.team.id));

  it("registers a receiver, shows its secret once, lists it without the secret and deletes it", async () => {
    const before = Date.now();
    const res = await t.call("POST", "/api/v1/webhooks", {
      json: { url: "https://ci.example.com/hooks/skillgate", events: ["sync.finished", "amendment.awaiting_approval", "sync.finished"] },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      url: "https://ci.example.com/hooks/skillgate",
      // In the API's order, each once.
      events: ["amendment.awaiting_approval", "sync.finished"],
      format: "json",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      secretPrefix: created.secret.slice(0, 10),
      createdAt: expect.any(String),
      createdBy: null,
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const [row] = await rows();
    expect([row!.secret, row!.createdByKey]).toEqual([created.secret, expect.any(Number)]);

    const slack = await t.call("POST", "/api/v1/webhooks", {
      json: { url: "https://hooks.slack.com/services/T000/B000/XXXX", events: EVENTS },
    });
    expect(slack.status).toBe(201);
    expect((await slack.json()).format).toBe("slack");

    const listed = await (await t.call("GET", "/api/v1/webhooks")).json();
    expect(listed.webhooks.map((hook: { url: string; format: string }) => [hook.url, hook.format])).toEqual([
      ["https://hooks.slack.com/services/T000/B000/XXXX", "slack"],
      ["https://ci.example.com/hooks/skillgate", "json"],
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(listed.webhooks[1]).toEqual({ ...created, secret: undefined, createdAt: created.createdAt });

    const deleted = await t.call("DELETE", `/api/v1/webhooks/${created.id}`);
    expect([deleted.status, await deleted.json()]).toEqual([200, { id: created.id, deleted: true }]);
    expect((await rows()).map((hook) => hook.url)).toEqual(["https://hooks.slack.com/services/T000/B000/XXXX"]);
    const again = await t.call("DELETE", `/api/v1/webhooks/${created.id}`);
    expect([again.status, await errorOf(again)]).toEqual([
      404,
      { code: "WebhookNotFound", message: `no webhook ${created.id} in this team` },
    ]);
  });

  it("refuses a bad URL or event list with a 400 that says what to fix, and writes nothing", async () => {
    const refusals: [unknown, string][] = [
      [
        { url: "not a url", events: ["sync.finished"] },
        'field "url": is not a URL: give the receiver\'s whole address, e.g. https://example.com/hooks/skillgate',
      ],
      [{ url: "ftp://example.com/in", events: ["sync.finished"] }, 'field "url": must start with https:// or http://, not ftp://'],
      [
        { url: "https://bot:hunter2@example.com/in", events: ["sync.finished"] },
        'field "url": may not carry a user name or password: Skillgate signs every delivery (X-Skillgate-Signature), so the receiver can check it instead',
      ],
      [{ url: "https://example.com/in#top", events: ["sync.finished"] }, 'field "url": may not have a #fragment: a receiver never sees it'],
      [{ url: `https://example.com/${"a".repeat(2048)}`, events: ["sync.finished"] }, 'field "url": must be at most 2048 characters'],
      [
        { url: "http://169.254.169.254/latest/meta-data/", events: ["sync.finished"] },
        'field "url": may not be a link-local address (169.254.169.254): cloud metadata answers there',
      ],
      [
        { url: "http://[fe80::1]/in", events: ["sync.finished"] },
        'field "url": may not be a link-local address (fe80::1): cloud metadata answers there',
      ],
      [{ url: "https://example.com/in", events: [] }, `field "events": choose at least one event: ${EVENT_LIST}`],
      [
        { url: "https://example.com/in", events: ["sync.finished", "skill.deleted"] },
        `field "events.1": "skill.deleted" is not an event Skillgate sends; choose from ${EVENT_LIST}`,
      ],
      [
        { url: "https://example.com/in", events: ["ping"] },
        `field "events.0": "ping" is not an event Skillgate sends; choose from ${EVENT_LIST}`,
      ],
      [
        { url: "https://example.com/in", events: ["sync.finished"], format: "xml" },
        'field "format": Invalid option: expected one of "json"|"slack"',
      ],
      [{ url: "https://example.com/in", events: ["sync.finished"], secret: "mine" }, 'unknown field "secret"; remove it'],
      [{ events: ["sync.finished"] }, 'field "url": Invalid input: expected string, received undefined'],
    ];
    for (const [json, message] of refusals) {
      const res = await t.call("POST", "/api/v1/webhooks", { json });
      expect([res.status, await errorOf(res)], JSON.stringify(json).slice(0, 80)).toEqual([400, { code: "InvalidField", message }]);
    }
    expect(await rows()).toEqual([]);
    const badId = await t.call("DELETE", "/api/v1/webhooks/nope");
    expect(badId.status).toBe(400);
  });

  it("is a lead's: another team's webhook is not found, and a write key is refused", async () => {
    const res = await t.call("POST", "/api/v1/webhooks", { json: { url: "https://example.com/alpha", events: ["sync.finished"] } });
    const { id } = await res.json();
    const asBeta = { key: t.beta.key };
    expect((await (await t.call("GET", "/api/v1/webhooks", asBeta)).json()).webhooks).toEqual([]);
    for (const [method, path] of [
      ["DELETE", `/api/v1/webhooks/${id}`],
      ["GET", `/api/v1/webhooks/${id}/deliveries`],
      ["POST", `/api/v1/webhooks/${id}/test`],
    ] as const) {
      const refused = await t.call(method, path, asBeta);
      expect([refused.status, (await errorOf(refused)).code], `${method} ${path}`).toEqual([404, "WebhookNotFound"]);
    }
    const { key: writeKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "agent", scopes: ["read", "write"] });
    for (const [method, path] of [
      ["GET", "/api/v1/webhooks"],
      ["POST", "/api/v1/webhooks"],
      ["DELETE", `/api/v1/webhooks/${id}`],
    ] as const) {
      const refused = await t.call(method, path, {
        key: writeKey,
        json: method === "POST" ? { url: "https://x.example", events: ["sync.finished"] } : undefined,
      });
      expect([refused.status, (await errorOf(refused)).code], `${method} ${path}`).toEqual([403, "Forbidden"]);
    }
    expect((await rows()).map((hook) => hook.id)).toEqual([id]);
  });

  it("of 16 creates of one URL at once makes exactly one; the others are told it exists", async () => {
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        t.call("POST", "/api/v1/webhooks", { json: { url: "https://example.com/same", events: ["sync.finished"] } }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([201, ...Array(15).fill(409)]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(await errorOf(res)).toEqual({
        code: "WebhookExists",
        message: "this team already has a webhook for https://example.com/same; delete it first to change its events",
      });
    }
    expect((await rows()).length).toBe(1);
  });

  it("of 16 creates of different URLs with 10 places left makes exactly 10 (a team has at most 20)", async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await t.call("POST", "/api/v1/webhooks", { json: { url: `https://example.com/early/${i}`, events: ["sync.finished"] } })).status,
      ).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        t.call("POST", "/api/v1/webhooks", { json: { url: `https://example.com/late/${i}`, events: ["skill.promoted"] } }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([...Array(10).fill(201), ...Array(6).fill(409)]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(await errorOf(res)).toEqual({ code: "TooManyWebhooks", message: "a team has at most 20 webhooks; delete one first" });
    }
    expect((await rows()).length).toBe(20);
  });

  it("of 16 deletes of one webhook at once, one deletes it with its deliveries; the others are told it is not found", async () => {
    const { id } = await (
      await t.call("POST", "/api/v1/webhooks", { json: { url: "http://127.0.0.1:9/gone", events: ["sync.finished"] } })
    ).json();
    expect((await t.call("POST", `/api/v1/webhooks/${id}/test`)).status).toBe(202);
    const results = await Promise.all(Array.from({ length: 16 }, () => t.call("DELETE", `/api/v1/webhooks/${id}`)));
    expect(results.map((res) => res.status).sort()).toEqual([200, ...Array(15).fill(404)]);
    expect(await rows()).toEqual([]);
    expect(await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.teamId, t.alpha.team.id))).toEqual([]);
  });
});
