import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { promptSets, skillActivationDays } from "@/db/schema";
import { utcDay } from "@/lib/usage/rollups";
import { ingestTelemetry } from "@/lib/telemetry/ingest";
import { createApiKey } from "@/lib/auth/api-keys";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge } from "../helpers/http-bridge";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender } from "../helpers/telemetry";

/**
 * What production telemetry (docs/telemetry.md) shows through the API: usage per skill by trigger, people,
 * the typed-only flag, unnamed and unregistered activations, the telemetry settings, and prompt
 * sets built from the prompts people wrote. Telemetry goes in through the real exporters.
 */

const ana = { email: "ana@example.com", accountUuid: "a-1" };
const bo = { email: "bo@example.com", accountUuid: "b-1" };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const session = (sessionId: string, person = ana): ClaudeCodeSession => ({ sessionId, person, sequence: 0 });

describe.each(testDbKinds)("production usage (%s)", (kind) => {
  const t = useTestApp(kind);
  let bridge: Awaited<ReturnType<typeof httpBridge>>;
  let logs: LogSender;
  beforeEach(async () => {
    bridge = await httpBridge();
    const { key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "laptops", scopes: ["telemetry"] });
    logs = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
  });
  afterEach(async () => {
    await logs.close();
    await bridge.close();
  });

  /** A morning of Claude Code: the model chooses systematic-debugging, people type /writing-plans, and more. */
  async function morning(): Promise<void> {
    const one = session("s1");
    logs.userPrompt(one, { promptId: "p1", at: minutesAgo(60), prompt: "the login test fails only on CI, find out why" });
    logs.skillActivated(one, { skill: "systematic-debugging", trigger: "claude-proactive", promptId: "p1" });
    logs.skillActivated(one, { skill: "test-driven-development", trigger: "nested-skill", promptId: "p1" });
    logs.userPrompt(one, { promptId: "p2", at: minutesAgo(55), prompt: "/writing-plans split the billing service" });
    logs.skillActivated(one, { skill: "writing-plans", trigger: "user-slash", promptId: "p2" });
    logs.userPrompt(one, { promptId: "p3", at: minutesAgo(50), prompt: "/writing-plans" });
    logs.skillActivated(one, { skill: "writing-plans", trigger: "user-slash", promptId: "p3" });
    const two = session("s2", bo);
    logs.userPrompt(two, { promptId: "q1", at: minutesAgo(45), prompt: "why does the cache return stale rows" });
    logs.skillActivated(two, { skill: "systematic-debugging", trigger: "claude-proactive", promptId: "q1" });
    logs.skillActivated(two, { skill: "custom_skill", trigger: "claude-proactive", promptId: "q1" });
    logs.userPrompt(two, { promptId: "q2", at: minutesAgo(40), prompt: "rename the column and ship it" });
    logs.skillActivated(two, { skill: "deploy-helper", trigger: "claude-proactive", promptId: "q2" });
    logs.skillActivated(two, { skill: "deploy-helper", trigger: "user-slash", promptId: "q2" });
    logs.userPrompt(two, { promptId: "q3", at: minutesAgo(35), prompt: "what time is it in Tokyo" });
    await logs.flush();
  }

  it("counts activations per skill by trigger, people, the typed-only flag, unnamed and unregistered names", async () => {
    await morning();
    const res = await t.call("GET", "/api/v1/usage");
    expect(res.status).toBe(200);
    const usage = await res.json();
    expect(usage.skills).toEqual([
      {
        name: "systematic-debugging",
        views7d: 0,
        views30d: 0,
        lastViewedAt: null,
        sessions: 0,
        activations: { proactive: 2, slash: 0, nested: 0 },
        people: 2,
        typedOnly: false,
        proactivePer100Prompts: 33.3,
        production: expect.objectContaining({
          prompts: 2,
          toolCalls: 0,
          toolFailures: 0,
          failureRate: null,
          rejections: 0,
          costUsd: 0,
          tokens: 0,
        }),
        loadedThenFailing: false,
        costly: false,
      },
      {
        name: "writing-plans",
        views7d: 0,
        views30d: 0,
        lastViewedAt: null,
        sessions: 0,
        activations: { proactive: 0, slash: 2, nested: 0 },
        people: 1,
        typedOnly: true,
        proactivePer100Prompts: 0,
        production: expect.objectContaining({
          prompts: 2,
          toolCalls: 0,
          toolFailures: 0,
          failureRate: null,
          rejections: 0,
          costUsd: 0,
          tokens: 0,
        }),
        loadedThenFailing: false,
        costly: false,
      },
      {
        name: "test-driven-development",
        views7d: 0,
        views30d: 0,
        lastViewedAt: null,
        sessions: 0,
        activations: { proactive: 0, slash: 0, nested: 1 },
        people: 1,
        typedOnly: false,
        proactivePer100Prompts: 0,
        production: expect.objectContaining({
          prompts: 1,
          toolCalls: 0,
          toolFailures: 0,
          failureRate: null,
          rejections: 0,
          costUsd: 0,
          tokens: 0,
        }),
        loadedThenFailing: false,
        costly: false,
      },
    ]);
    expect(usage.unnamed).toBe(1);
    expect(usage.outsideRegistry).toEqual([{ name: "deploy-helper", activations: 2 }]);
    expect(usage.prompts).toBe(6);
    // Activated skills are loaded; the built-ins nobody used are not.
    expect(usage.neverLoaded).toEqual([
      "experiment-driven-development",
      "finishing-a-branch",
      "scientific-method",
      "verification-before-completion",
    ]);
  });

  it("counts a person once per skill in 30 days whatever the order their days arrive in, and 16 racing batches exactly", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    // ana's days arrive in order, bo's backwards; each batch on its own.
    for (const [person, days] of [
      [ana, 20],
      [ana, 5],
      [bo, 5],
      [bo, 20],
    ] as const) {
      logs.skillActivated(session(`s-${person.email}-${days}`, person), {
        skill: "writing-plans",
        trigger: "claude-proactive",
        promptId: `p-${days}`,
        at: daysAgo(days),
      });
      await logs.flush();
    }
    const histogram = async () =>
      (
        await t.app.db
          .select({ day: skillActivationDays.day, people: skillActivationDays.people })
          .from(skillActivationDays)
          .where(and(eq(skillActivationDays.teamId, t.alpha.team.id), eq(skillActivationDays.skillName, "writing-plans")))
          .orderBy(skillActivationDays.day)
      ).map((row) => [row.day, row.people]);
    expect(await histogram()).toEqual([
      [utcDay(daysAgo(20)), 0],
      [utcDay(daysAgo(5)), 2],
    ]);
    const usage = async () =>
      ((await (await t.call("GET", "/api/v1/usage")).json()).skills as { name: string; people: number }[]).find(
        (row) => row.name === "writing-plans",
      )?.people;
    expect(await usage()).toBe(2);

    // 16 people at once, each on two days: every batch moves a last day another batch may be moving.
    const senders = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const { key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: `laptop-${i}`, scopes: ["telemetry"] });
        return claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
      }),
    );
    senders.forEach((sender, i) => {
      const racing = session(`race-${i}`, { email: `dev-${i}@example.com`, accountUuid: `dev-${i}` });
      sender.skillActivated(racing, { skill: "writing-plans", trigger: "user-slash", promptId: `r-${i}`, at: daysAgo(3 + (i % 4)) });
      sender.skillActivated(racing, { skill: "writing-plans", trigger: "user-slash", promptId: `r-${i}`, at: daysAgo(1) });
    });
    await Promise.all(senders.map((sender) => sender.flush()));
    await Promise.all(senders.map((sender) => sender.close()));
    expect(await usage()).toBe(18);
    // Each of the 16 moved from the day of their first activation to yesterday, their last.
    expect((await histogram()).filter(([, people]) => people !== 0)).toEqual([
      [utcDay(daysAgo(5)), 2],
      [utcDay(daysAgo(1)), 16],
    ]);

    // One person's 16 days arriving at once, straight into the receiver's writer: each batch moves the same last day.
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        ingestTelemetry(
          t.app.db,
          t.alpha.team.id,
          {
            events: [
              {
                kind: "activation",
                key: `seq:carol-${i}:1`,
                at: daysAgo(2 + i),
                sessionId: `carol-${i}`,
                promptId: `c-${i}`,
                person: "carol@example.com",
                sequence: 1,
                skillName: "writing-plans",
                trigger: "proactive",
                skillSource: null,
              },
            ],
            ignored: 0,
            refused: { count: 0, reasons: [] },
          },
          t.app.catalogs.staticNames,
        ),
      ),
    );
    expect(await usage()).toBe(19);
    const rows = await histogram();
    expect(rows.reduce((sum, [, people]) => sum + Number(people), 0)).toBe(19);
    expect(rows.filter(([, people]) => Number(people) !== 0)).toEqual([
      [utcDay(daysAgo(5)), 2],
      [utcDay(daysAgo(2)), 1],
      [utcDay(daysAgo(1)), 16],
    ]);
  });

  it("shows one team's telemetry to that team only", async () => {
    await morning();
    const usage = await (await t.call("GET", "/api/v1/usage", { key: t.beta.key })).json();
    expect(usage.skills).toEqual([]);
    expect(usage.unnamed).toBe(0);
    expect(usage.outsideRegistry).toEqual([]);
    expect(usage.prompts).toBe(0);
  });

  it("keeps telemetry settings a lead changes, and refuses what is not a setting", async () => {
    expect(await (await t.call("GET", "/api/v1/settings")).json()).toMatchObject({ storePrompts: false, telemetryDays: 30 });
    const changed = await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: true, telemetryDays: 7 } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({
      cap: 8000,
      descMax: 60,
      loadHint: "skill_view",
      autoPromote: true,
      requireReasons: false,
      storePrompts: true,
      telemetryDays: 7,
    });
    const zero = await t.call("PATCH", "/api/v1/settings", { json: { telemetryDays: 0 } });
    expect(zero.status).toBe(400);
    expect((await errorOf(zero)).message).toBe('field "telemetryDays": must be at least 1 day');
    const text = await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: "yes" } });
    expect(text.status).toBe(400);
    expect(await (await t.call("GET", "/api/v1/settings")).json()).toMatchObject({ storePrompts: true, telemetryDays: 7 });
  });

  it("takes 16 concurrent changes of the telemetry settings: one of them wins whole, the other settings stay", async () => {
    const sent = Array.from({ length: 16 }, (_, i) => ({ storePrompts: i % 2 === 0, telemetryDays: 10 + i }));
    const answers = await Promise.all(sent.map((json) => t.call("PATCH", "/api/v1/settings", { json })));
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(200));
    const settings = await (await t.call("GET", "/api/v1/settings")).json();
    expect(sent).toContainEqual({ storePrompts: settings.storePrompts, telemetryDays: settings.telemetryDays });
    expect(settings).toMatchObject({ cap: 8000, descMax: 60, loadHint: "skill_view", autoPromote: true });
  });

  it("builds a prompt set from stored prompts: each expects the skills activated for it", async () => {
    const off = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "production" } });
    expect(off.status).toBe(422);
    expect((await errorOf(off)).message).toBe(
      'no stored prompts in the last 30 day(s): turn on "store prompts" in the team\'s settings and have agents send prompt texts (Claude Code: OTEL_LOG_USER_PROMPTS=1)',
    );
    expect((await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: true } })).status).toBe(200);
    await morning();
    const res = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "production", days: 7 } });
    expect(res.status).toBe(201);
    const cases = [
      { id: "G1", prompt: "what time is it in Tokyo", expected: [], expectNone: true },
      // q2 activated only a skill the catalog does not hold: no case can expect it.
      { id: "P1", prompt: "why does the cache return stale rows", expected: ["systematic-debugging"], expectNone: false },
      // p3 was a bare /writing-plans: nothing about wording to measure.
      { id: "P2", prompt: "split the billing service", expected: ["writing-plans"], expectNone: false },
      { id: "P3", prompt: "the login test fails only on CI, find out why", expected: ["systematic-debugging"], expectNone: false },
    ];
    expect(await res.json()).toEqual({ name: "production", cases });
    const [stored] = await t.app.db
      .select({ cases: promptSets.cases })
      .from(promptSets)
      .where(and(eq(promptSets.teamId, t.alpha.team.id), eq(promptSets.name, "production")));
    expect(stored?.cases).toEqual(cases);
  });

  it("keeps prompts of two sessions apart when their prompt ids are the same", async () => {
    expect((await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: true } })).status).toBe(200);
    const one = session("s1");
    logs.userPrompt(one, { promptId: "prompt-1", at: minutesAgo(30), prompt: "plan the migration to the new queue" });
    logs.skillActivated(one, { skill: "writing-plans", trigger: "claude-proactive", promptId: "prompt-1" });
    const two = session("s2", bo);
    logs.userPrompt(two, { promptId: "prompt-1", at: minutesAgo(20), prompt: "what is the capital of Peru" });
    await logs.flush();
    const res = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "production" } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      name: "production",
      cases: [
        { id: "G1", prompt: "what is the capital of Peru", expected: [], expectNone: true },
        { id: "P1", prompt: "plan the migration to the new queue", expected: ["writing-plans"], expectNone: false },
      ],
    });
  });

  it("keeps no prompt text while storePrompts is off, so nothing can be built from it", async () => {
    await morning();
    const res = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "production" } });
    expect(res.status).toBe(422);
    expect((await t.call("GET", "/api/v1/evals/prompt-sets/production")).status).toBe(404);
  });

  it("refuses the name of its own route and bad bounds, and a read key", async () => {
    const taken = await t.call("POST", "/api/v1/evals/prompt-sets", {
      json: { name: "from-telemetry", cases: [{ id: "G1", prompt: "hi", expectNone: true }] },
    });
    expect(taken.status).toBe(400);
    expect((await errorOf(taken)).message).toBe(
      'field "name": from-telemetry is taken by the route that builds sets from telemetry; choose another name',
    );
    const limit = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "x", limit: 0 } });
    expect(limit.status).toBe(400);
    expect((await errorOf(limit)).message).toBe('field "limit": must be at least 1');
    const { key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read"] });
    const read = await t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { key, json: { name: "x" } });
    expect(read.status).toBe(403);
  });

  it("16 concurrent builds of one set leave one set with every case", async () => {
    expect((await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: true } })).status).toBe(200);
    await morning();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => t.call("POST", "/api/v1/evals/prompt-sets/from-telemetry", { json: { name: "production" } })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(201));
    const rows = await t.app.db.select({ cases: promptSets.cases }).from(promptSets).where(eq(promptSets.teamId, t.alpha.team.id));
    expect(rows).toHaveLength(1);
    expect((rows[0]?.cases as unknown[]).length).toBe(4);
  });
});
