import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { skillActivationDays, typedOnlySkills, webhookAttempts, webhookDeliveries } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { ensureUser } from "@/lib/auth/users";
import { rereadEnv } from "@/lib/env";
import { smtpMailer, type Mailer } from "@/lib/mail/mailer";
import { setMembership } from "@/lib/teams/teams";
import { announceTypedOnly } from "@/lib/usage/typed-only";
import { setMailEvents } from "@/lib/webhooks/mail-subscriptions";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { startSmtp } from "../helpers/smtp-server";
import { httpBridge } from "../helpers/http-bridge";
import { judgeJson, mockJudge, taskOf } from "../helpers/judge";
import { claudeCodeLogs, type LogSender } from "../helpers/telemetry";
import { waitUntil } from "../helpers/wait";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

/**
 * Each event leads can be told of (docs/learned-skills.md#webhooks-and-mail, issue 39) is written to the outbox by the change
 * that makes it, in its transaction, with the data the spec's consumers need: nothing for a change
 * that did not commit, nothing for an event no receiver asked for, and mail to leads who asked.
 */

const ALL_EVENTS = [
  "amendment.awaiting_approval",
  "amendment.decided",
  "evaluation.finished",
  "skill.promoted",
  "skill.rolled_back",
  "sync.finished",
  "skill.only_typed",
];

/** Amendments whose body says "worse" are judged regressed; every other one improved. */
function judgeFor(prompt: string): string {
  if (prompt.includes("worse")) return judgeJson({ original: [0.8, 0.8, 0.8], amended: [0.4, 0.4, 0.4] }, "worse");
  return judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.8, 0.7, 0.6] }, `clearer for ${taskOf(prompt)}`);
}

describe.each(testDbKinds)("webhook events on %s", (kind) => {
  const smtp = startSmtp();
  let smtpPort = 0;
  const mailer: Mailer = { send: (mail) => smtpMailer(`smtp://127.0.0.1:${smtpPort}`, "Skillgate <skillgate@example.com>").send(mail) };
  const t = useTestApp(kind, { model: mockJudge(judgeFor), judgeConcurrency: 2, mailer, webhooks: { tickMs: 25, backoffMs: [0] } });
  let receiver: WebhookReceiver;
  let hookId: number;
  beforeAll(async () => {
    smtpPort = await smtp.listen();
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    smtp.received.length = 0;
    receiver = await startReceiver();
    vi.stubEnv("AUTH_URL", "https://skills.example.com");
    rereadEnv();
    const res = await t.call("POST", "/api/v1/webhooks", { json: { url: receiver.url, events: ALL_EVENTS } });
    hookId = ((await res.json()) as { id: number }).id;
  });
  afterEach(async () => {
    await receiver.close();
    vi.unstubAllEnvs();
    rereadEnv();
  });

  /** What the outbox holds for the webhook, oldest first. */
  const outbox = async () =>
    (
      await t.app.db
        .select({ event: webhookDeliveries.event, data: webhookDeliveries.data })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hookId))
        .orderBy(webhookDeliveries.id)
    ).map(({ event, data }) => ({ event, data }));
  const ok = async (res: Promise<Response>, status = 200) => {
    const answered = await res;
    expect(answered.status, await answered.clone().text()).toBe(status);
    return answered.json();
  };
  const createSkill = (name: string, status: "active" | "draft") =>
    ok(
      t.call("POST", "/api/v1/skills", { json: { name, description: `Does ${name}. Use when testing.`, body: `# ${name}\n`, status } }),
      201,
    );
  const amendAndEvaluate = async (name: string, body: string) => {
    await ok(
      t.call("POST", "/api/v1/observations", { json: { skill: name, task: `the ${name} task`, category: "test", outcome: "failure" } }),
      201,
    );
    const { id } = await ok(t.call("POST", `/api/v1/skills/${name}/amendments`, { json: { body, rationale: "try it" } }), 201);
    const evaluated = await ok(t.call("POST", `/api/v1/amendments/${id}/evaluate`));
    return { id: id as number, evaluation: evaluated.id as number, delta: evaluated.delta as number };
  };

  it("a draft promoted is skill.promoted; a rollback is skill.rolled_back; a retried rollback is nothing", async () => {
    await createSkill("drafty", "draft");
    await ok(t.call("POST", "/api/v1/skills/drafty/promote"));
    await ok(t.call("PUT", "/api/v1/skills/drafty", { json: { body: "# drafty\n\nv2\n", expectedVersion: 1 } }));
    await ok(t.call("POST", "/api/v1/skills/drafty/rollback", { json: { toVersion: 1 } }));
    await ok(t.call("POST", "/api/v1/skills/drafty/rollback", { json: { toVersion: 1 } }));
    expect(await outbox()).toEqual([
      { event: "skill.promoted", data: { skill: "drafty", version: 1, from: "draft", amendment: null } },
      { event: "skill.rolled_back", data: { skill: "drafty", version: 3, revertOf: 1, from: 2, served: { version: 3, why: "latest" } } },
    ]);
    // Sent as they are, each with the link to the skill.
    await waitUntil(
      () => receiver.received.length,
      (n) => n === 2,
      { what: "both deliveries" },
    );
    expect(receiver.received.map((got) => JSON.parse(got.body).url)).toEqual([
      "https://skills.example.com/t/alpha/skills/drafty",
      "https://skills.example.com/t/alpha/skills/drafty",
    ]);
  });

  it("an improved evaluation awaiting approval, its approval and another's rejection", async () => {
    await ok(t.call("PATCH", "/api/v1/settings", { json: { autoPromote: false } }));
    await createSkill("gated", "active");
    const first = await amendAndEvaluate("gated", "# gated\n\nclearer\n");
    const evaluated = {
      skill: "gated",
      amendment: first.id,
      evaluation: first.evaluation,
      verdict: "improved",
      delta: first.delta,
    };
    expect(await outbox()).toEqual([
      { event: "evaluation.finished", data: { ...evaluated, amendmentStatus: "awaiting-approval" } },
      { event: "amendment.awaiting_approval", data: { ...evaluated, baseVersion: 1 } },
    ]);
    await ok(t.call("POST", `/api/v1/amendments/${first.id}/approve`));
    const second = await amendAndEvaluate("gated", "# gated\n\nclearer still\n");
    await ok(t.call("POST", `/api/v1/amendments/${second.id}/reject`, { json: { reason: "not now" } }));
    expect((await outbox()).slice(2).map(({ event, data }) => [event, data.decision ?? data.amendmentStatus ?? data.from])).toEqual([
      ["amendment.decided", "approved"],
      ["skill.promoted", "amendment"],
      ["evaluation.finished", "awaiting-approval"],
      ["amendment.awaiting_approval", undefined],
      ["amendment.decided", "rejected"],
    ]);
    const decided = (await outbox()).filter((row) => row.event === "amendment.decided").map((row) => row.data);
    expect(decided).toEqual([
      { skill: "gated", amendment: first.id, decision: "approved", by: null, reason: null, version: 2 },
      { skill: "gated", amendment: second.id, decision: "rejected", by: null, reason: "not now", version: null },
    ]);
    expect((await outbox())[3]).toEqual({
      event: "skill.promoted",
      data: { skill: "gated", version: 2, from: "amendment", amendment: first.id },
    });
  });

  it("auto-promotion is evaluation.finished and skill.promoted; another verdict is evaluation.finished alone", async () => {
    await createSkill("auto", "active");
    const improved = await amendAndEvaluate("auto", "# auto\n\nclearer\n");
    const worse = await amendAndEvaluate("auto", "# auto\n\nworse\n");
    expect(await outbox()).toEqual([
      {
        event: "evaluation.finished",
        data: {
          skill: "auto",
          amendment: improved.id,
          evaluation: improved.evaluation,
          verdict: "improved",
          delta: improved.delta,
          amendmentStatus: "promoted",
        },
      },
      { event: "skill.promoted", data: { skill: "auto", version: 2, from: "amendment", amendment: improved.id } },
      {
        event: "evaluation.finished",
        data: {
          skill: "auto",
          amendment: worse.id,
          evaluation: worse.evaluation,
          verdict: "regressed",
          delta: worse.delta,
          amendmentStatus: "evaluated",
        },
      },
    ]);
  });

  it("writes nothing for a change that did not commit, nor for an event no receiver asked for", async () => {
    await ok(t.call("DELETE", `/api/v1/webhooks/${hookId}`));
    const only = await ok(t.call("POST", "/api/v1/webhooks", { json: { url: `${receiver.url}/syncs`, events: ["sync.finished"] } }), 201);
    hookId = only.id;
    await createSkill("kept", "draft");
    await ok(t.call("POST", "/api/v1/skills/kept/promote"));
    const refused = await t.call("POST", "/api/v1/skills/kept/rollback", { json: { toVersion: 7 } });
    expect(refused.status).toBe(404);
    const strict = await t.call("POST", "/api/v1/skills/sync?strict=true", {
      json: { files: [{ path: "broken/SKILL.md", content: "no front matter\n" }] },
    });
    expect(strict.status).toBe(400);
    const dry = await t.call("POST", "/api/v1/skills/sync?dryRun=true", {
      json: { files: [{ path: "fine/SKILL.md", content: "---\nname: fine\ndescription: Fine. Use when fine.\n---\n# fine\n" }] },
    });
    expect(dry.status).toBe(200);
    expect(await t.app.db.$count(webhookDeliveries)).toBe(0);
    // Another team's sync tells alpha's webhook nothing.
    const beta = await t.call("POST", "/api/v1/skills/sync", {
      key: t.beta.key,
      json: { files: [{ path: "fine/SKILL.md", content: "---\nname: fine\ndescription: Fine. Use when fine.\n---\n# fine\n" }] },
    });
    expect(beta.status).toBe(200);
    expect(await t.app.db.$count(webhookDeliveries)).toBe(0);
  });

  it("mails the events a lead asked for through the same outbox, and none to a member who is not a lead", async () => {
    const lead = await ensureUser(t.app.db, "lead@example.com", "a password of some length");
    const editor = await ensureUser(t.app.db, "editor@example.com", "a password of some length");
    await setMembership(t.app.db, t.alpha.team.id, lead.id, "lead");
    await setMembership(t.app.db, t.alpha.team.id, editor.id, "editor");
    await setMailEvents(t.app.db, t.alpha.team.id, lead.id, ["skill.rolled_back"]);
    await setMailEvents(t.app.db, t.alpha.team.id, editor.id, ["skill.rolled_back"]);
    await createSkill("mailed", "active");
    await ok(t.call("PUT", "/api/v1/skills/mailed", { json: { body: "# mailed\n\nv2\n", expectedVersion: 1 } }));
    await ok(t.call("POST", "/api/v1/skills/mailed/rollback", { json: { toVersion: 1 } }));
    await waitUntil(
      () => smtp.received.length,
      (n) => n === 1,
      { what: "the mail" },
    );
    expect(smtp.received).toEqual([
      {
        from: '"Skillgate" <skillgate@example.com>',
        to: "lead@example.com",
        subject: "[Skillgate alpha] mailed was rolled back from v2: v3 has the content of v1.",
        text:
          "mailed was rolled back from v2: v3 has the content of v1.\n\nOpen it: https://skills.example.com/t/alpha/skills/mailed\n\n" +
          "You get this mail because you asked for skill.rolled_back mails in team alpha; change that at https://skills.example.com/t/alpha/settings#webhooks.\n",
      },
    ]);
    const [mail] = await waitUntil(
      () => t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, lead.id)),
      (rows) => rows[0]?.status === "delivered",
      { what: "the mail's delivery to be recorded" },
    );
    const [attempt] = await t.app.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, mail!.id));
    expect([attempt!.answer, attempt!.error]).toEqual(["mailed to lead@example.com", null]);
    expect(await t.app.db.$count(webhookDeliveries, eq(webhookDeliveries.userId, editor.id))).toBe(0);
  });

  it("tells of a skill newly used only by /name once, and again only after it stopped being so", async () => {
    await createSkill("typed-skill", "active");
    const bridge = await httpBridge();
    const { key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "laptops", scopes: ["telemetry"] });
    const logs: LogSender = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
    const person = { email: "ana@example.com", accountUuid: "a-1" };
    try {
      const session = { sessionId: "s1", person, sequence: 0 };
      logs.skillActivated(session, { skill: "typed-skill", trigger: "user-slash", promptId: "p1" });
      logs.skillActivated(session, { skill: "typed-skill", trigger: "user-slash", promptId: "p2" });
      // A name the catalog does not hold is not the team's skill.
      logs.skillActivated(session, { skill: "elsewhere", trigger: "user-slash", promptId: "p3" });
      await logs.flush();
      await announceTypedOnly(t.app);
      await announceTypedOnly(t.app);
      expect(await outbox()).toEqual([{ event: "skill.only_typed", data: { skill: "typed-skill", slash: 2 } }]);
      // The model chooses it: it is no longer typed only, and nothing is said.
      logs.skillActivated(session, {
        skill: "typed-skill",
        trigger: "claude-proactive",
        promptId: "p4",
        at: new Date(Date.now() - 5 * 86_400_000),
      });
      await logs.flush();
      await announceTypedOnly(t.app);
      expect(await t.app.db.$count(typedOnlySkills)).toBe(0);
      expect(await outbox()).toHaveLength(1);
      // A month on, that activation has left the window: typed only again, said again.
      await t.app.db
        .update(skillActivationDays)
        .set({ day: sql`${skillActivationDays.day} - 40` })
        .where(and(eq(skillActivationDays.skillName, "typed-skill"), sql`${skillActivationDays.proactive} > 0`));
      const proactiveLeft = await t.app.db.$count(
        skillActivationDays,
        sql`${skillActivationDays.proactive} > 0 and day >= current_date - 29`,
      );
      expect(proactiveLeft).toBe(0);
      await announceTypedOnly(t.app);
      expect((await outbox()).map((row) => row.event)).toEqual(["skill.only_typed", "skill.only_typed"]);
    } finally {
      await logs.close();
      await bridge.close();
    }
  });
});
