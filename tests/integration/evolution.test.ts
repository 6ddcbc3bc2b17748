import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  evaluationCases,
  evaluations,
  learnedSkillVersions,
  learnedSkills,
  listingSnapshots,
  observations,
  skillEvents,
} from "@/db/schema";
import { recoverEvaluations, startEvaluation } from "@/lib/evolution/evaluate";
import { createApiKey } from "@/lib/auth/api-keys";
import { approveAmendment } from "@/lib/evolution/promote";
import { anotherInstance, errorOf, startTestApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { judgeJson, mockJudge, taskOf } from "../helpers/judge";
import { waitFor } from "../helpers/wait";

/** The mock judge reads the case's task: "better …" scores the amendment higher, "worse …" lower, "bad …" answers nonsense. */
const malformedOnce = new Set<string>();
function judgeFor(prompt: string): string {
  const task = taskOf(prompt);
  if (task.startsWith("bad twice")) return '{"original": {"correctness": 2}}';
  if (task.startsWith("bad once") && !malformedOnce.has(task)) {
    malformedOnce.add(task);
    return "not json at all";
  }
  if (task.startsWith("worse")) return judgeJson({ original: [0.8, 0.8, 0.8], amended: [0.5, 0.5, 0.5] }, `worse: ${task}`);
  if (task.startsWith("same")) return judgeJson({ original: [0.6, 0.6, 0.6], amended: [0.6, 0.6, 0.6] }, "no difference");
  return judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.8, 0.7, 0.6] }, `clearer: ${task}`);
}

describe.each(testDbKinds)("observations, amendments and judged evaluation on %s", (kind) => {
  const judge = mockJudge(judgeFor);
  const t = useTestApp(kind, { model: judge, judgeConcurrency: 3 });
  let writeKey: string;

  beforeEach(async () => {
    malformedOnce.clear();
    writeKey = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "agent", scopes: ["write"] })).key;
    for (const name of ["deploy-guide", "quiet-skill", "manual-skill", "stale-skill"]) {
      const res = await t.call("POST", "/api/v1/skills", {
        json: { name, description: `Guides ${name}. Use when it applies.`, body: `# ${name}\n\n1. Do the thing.\n`, status: "active" },
      });
      expect(res.status).toBe(201);
    }
  });

  const observe = (body: unknown, key?: string) => t.call("POST", "/api/v1/observations", { json: body, key });
  const run = (skill: string, task: string, outcome: string, extra: Record<string, unknown> = {}) => ({
    skill,
    task,
    category: "deploy",
    outcome,
    ...extra,
  });
  const amend = async (skill: string, body: Record<string, unknown>, key?: string) => {
    const res = await t.call("POST", `/api/v1/skills/${skill}/amendments`, { json: body, key });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; status: string };
  };
  /** What "records one observation or a batch" writes: a failure, a partial and two successes of deploy-guide v1. */
  const observeDeployGuide = async () => {
    const one = await observe(
      run("deploy-guide", "better: deploy the api", "failure", {
        errorType: "MissedStep",
        failedToolCalls: ["kubectl"],
        feedback: "forgot to tag",
        score: 0.2,
        durationMs: 5400,
        toolsCalled: ["git", "kubectl"],
      }),
      writeKey,
    );
    expect(one.status).toBe(201);
    const batch = await observe({
      observations: [
        run("deploy-guide", "better: deploy the worker", "partial"),
        run("deploy-guide", "better: deploy the web app", "success", { version: 1 }),
        run("deploy-guide", "same: deploy docs", "success", { category: "docs" }),
      ],
    });
    expect(batch.status).toBe(201);
    return { one: (await one.json()) as { ids: number[] }, batch: (await batch.json()) as { ids: number[] } };
  };
  /** An agent's amendment to deploy-guide that adds the step the failures missed. */
  const TAG_STEP = { body: "# deploy-guide\n\n1. Tag the release.\n2. Do the thing.\n", rationale: "two failures forgot the tag" };
  /** deploy-guide's observations, the tag-step amendment, and its evaluation (which promotes it). */
  const evaluateTagStep = async () => {
    await observeDeployGuide();
    const amendment = await amend("deploy-guide", TAG_STEP, writeKey);
    const res = await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`, { key: writeKey });
    expect(res.status).toBe(200);
  };
  /** What "retries a malformed answer once…" leaves: stale-skill's amendment, evaluated neutral. */
  const evaluateStaleAmendment = async () => {
    await observe({
      observations: [
        run("stale-skill", "bad twice: never parses", "failure"),
        run("stale-skill", "bad once: parses second time", "failure"),
        run("stale-skill", "worse: rolled back", "success"),
      ],
    });
    const amendment = await amend("stale-skill", { body: "# stale\n", rationale: "try" });
    expect((await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`)).status).toBe(200);
  };

  it("records one observation or a batch, against the version that ran", async () => {
    const { one, batch } = await observeDeployGuide();
    expect(one.ids).toHaveLength(1);
    expect(batch.ids).toHaveLength(3);
    const [row] = await t.app.db.select().from(observations).where(eq(observations.id, one.ids[0]!));
    expect(row).toMatchObject({
      skillName: "deploy-guide",
      version: 1,
      outcome: "failure",
      errorType: "MissedStep",
      failedToolCalls: ["kubectl"],
      toolsCalled: ["git", "kubectl"],
      score: 0.2,
      durationMs: 5400,
    });
  });

  it("refuses bad observations field by field, and writes none of a batch with one bad", async () => {
    const before = await t.app.db.$count(observations);
    const cases: [unknown, number, string][] = [
      [run("deploy-guide", "x", "meh"), 400, 'field "outcome": Invalid option: expected one of "success"|"failure"|"partial"'],
      [run("deploy-guide", "x", "success", { score: 1.5 }), 400, 'field "score": Too big: expected number to be <=1'],
      [run("deploy-guide", "   ", "success"), 400, 'field "task": is empty: say what the agent was asked to do'],
      [
        { skill: "deploy-guide", task: "x", outcome: "success" },
        400,
        'field "category": Invalid input: expected string, received undefined',
      ],
      [run("Deploy Guide", "x", "success"), 400, 'field "skill": is not a skill name (lowercase letters, digits, single hyphens)'],
      [run("deploy-guide", "x", "success", { durationMs: -1 }), 400, 'field "durationMs": Too small: expected number to be >=0'],
      [run("deploy-guide", "x", "success", { version: 9 }), 400, "deploy-guide has no v9; it is at v1"],
      [
        run("no-such-skill", "x", "success"),
        404,
        "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills.",
      ],
      [
        { observations: [run("deploy-guide", "fine", "success"), run("deploy-guide", "x", "nope")] },
        400,
        'field "observations.1.outcome": Invalid option: expected one of "success"|"failure"|"partial"',
      ],
      [
        { observations: [run("deploy-guide", "fine", "success"), run("ghost", "x", "success")] },
        404,
        "observations.1: no skill named 'ghost'",
      ],
      [{ observations: [] }, 400, 'field "observations": send at least one observation'],
      [
        { observations: Array.from({ length: 501 }, () => run("deploy-guide", "x", "success")) },
        400,
        'field "observations": send at most 500 observations at a time',
      ],
      [{ ...run("deploy-guide", "x", "success"), colour: "red" }, 400, 'unknown field "colour"; remove it'],
    ];
    for (const [body, status, message] of cases) {
      const res = await observe(body);
      expect(res.status, message).toBe(status);
      expect((await errorOf(res)).message).toBe(message);
    }
    expect(await t.app.db.$count(observations)).toBe(before);
  });

  it("lists a skill's observations newest first, filtered by outcome, category and version", async () => {
    await observeDeployGuide();
    const all = (await (await t.call("GET", "/api/v1/skills/deploy-guide/observations")).json()).observations;
    expect(all.map((o: { task: string }) => o.task)).toEqual([
      "same: deploy docs",
      "better: deploy the web app",
      "better: deploy the worker",
      "better: deploy the api",
    ]);
    const failures = (await (await t.call("GET", "/api/v1/skills/deploy-guide/observations?outcome=failure")).json()).observations;
    expect(failures.map((o: { task: string }) => o.task)).toEqual(["better: deploy the api"]);
    const docs = (await (await t.call("GET", "/api/v1/skills/deploy-guide/observations?category=docs&version=1")).json()).observations;
    expect(docs).toHaveLength(1);
    expect((await t.call("GET", "/api/v1/skills/deploy-guide/observations?since=yesterday")).status).toBe(400);
  });

  it("evaluates an amendment case by case and promotes it on improved, linking the evaluation", async () => {
    await observeDeployGuide();
    const amendment = await amend("deploy-guide", TAG_STEP, writeKey);
    expect(amendment.status).toBe("pending");
    const calls = judge.model.doGenerateCalls.length;
    const res = await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`, { key: writeKey });
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(judge.model.doGenerateCalls.length - calls).toBe(4);
    expect(report).toMatchObject({
      verdict: "improved",
      improved: 3,
      regressed: 0,
      unchanged: 1,
      failedToJudge: 0,
      promotedVersion: 2,
      modelId: "mock:mock-judge",
      promptVersion: "judge-v1",
      note: "a judged comparison, not a re-execution",
    });
    expect(report.delta).toBeCloseTo(0.15, 10);
    expect(report.cases.map((c: { outcome: string }) => c.outcome)).toEqual(["partial", "failure", "success", "success"]);
    expect(report.cases[1]).toEqual({
      observationId: expect.any(Number),
      outcome: "failure",
      task: "better: deploy the api",
      status: "judged",
      original: { correctness: 0.4, completeness: 0.5, adherence: 0.6 },
      amended: { correctness: 0.8, completeness: 0.7, adherence: 0.6 },
      change: "improved",
      rationale: "clearer: better: deploy the api",
      error: null,
    });
    expect(await (await t.call("GET", "/api/v1/skills/deploy-guide")).text()).toBe(
      "[skill deploy-guide | learned | v2]\n# deploy-guide\n\n1. Tag the release.\n2. Do the thing.\n",
    );
    const [skill] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "deploy-guide"));
    const versions = await t.app.db.select().from(learnedSkillVersions).where(eq(learnedSkillVersions.skillId, skill!.id));
    expect(versions.find((v) => v.version === 2)!.evaluationId).toBe(report.id);
    // The versions answer names the amendment as well: the number a lead knows it by.
    const listed = (await (await t.call("GET", "/api/v1/skills/deploy-guide/versions")).json()).versions;
    expect(
      listed.map((v: { version: number; evaluationId: number | null; amendmentId: number | null }) => [
        v.version,
        v.evaluationId,
        v.amendmentId,
      ]),
    ).toEqual([
      [1, null, null],
      [2, report.id, amendment.id],
    ]);
    const events = await t.app.db
      .select({ kind: skillEvents.kind })
      .from(skillEvents)
      .where(eq(skillEvents.skillName, "deploy-guide"))
      .orderBy(skillEvents.id);
    expect(events.map((e) => e.kind)).toEqual(["created", "amended", "evaluated", "promoted"]);
    expect((await (await t.call("GET", `/api/v1/evaluations/${report.id}`)).json()).verdict).toBe("improved");
  });

  it("puts the recorded task and what happened in the judge's prompt, at temperature 0", async () => {
    const before = judge.model.doGenerateCalls.length;
    await evaluateTagStep();
    const call = judge.model.doGenerateCalls.slice(before).find((c) => JSON.stringify(c.prompt).includes("better: deploy the api"))!;
    expect(call.temperature).toBe(0);
    const text = JSON.stringify(call.prompt);
    for (const fact of [
      "Category: deploy",
      "Outcome with the original version: failure",
      "Error type: MissedStep",
      "Failed tool calls: kubectl",
      "Feedback: forgot to tag",
      "## Original version (SKILL.md)",
      "1. Do the thing.",
      "## Amended version (SKILL.md)",
      "1. Tag the release.",
    ]) {
      expect(text).toContain(fact);
    }
  });

  it("selects up to 7 most recent failures (partial counts) and 3 most recent successes", async () => {
    const tasks = [
      ...Array.from({ length: 6 }, (_, i) => run("quiet-skill", `failure ${i}`, "failure")),
      ...Array.from({ length: 3 }, (_, i) => run("quiet-skill", `partial ${i}`, "partial")),
      ...Array.from({ length: 5 }, (_, i) => run("quiet-skill", `same: success ${i}`, "success")),
    ];
    for (const observation of tasks) await observe(observation);
    const amendment = await amend("quiet-skill", { description: "Guides quiet-skill well. Use when it applies.", rationale: "wording" });
    const report = await (await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`)).json();
    expect(report.cases.map((c: { task: string }) => c.task)).toEqual([
      "partial 2",
      "partial 1",
      "partial 0",
      "failure 5",
      "failure 4",
      "failure 3",
      "failure 2",
      "same: success 4",
      "same: success 3",
      "same: success 2",
    ]);
  });

  it("retries a malformed answer once, then records the case as failed-to-judge, never a score", async () => {
    await observe({
      observations: [
        run("stale-skill", "bad twice: never parses", "failure"),
        run("stale-skill", "bad once: parses second time", "failure"),
        run("stale-skill", "worse: rolled back", "success"),
      ],
    });
    const amendment = await amend("stale-skill", { body: "# stale\n", rationale: "try" });
    const before = judge.model.doGenerateCalls.length;
    const report = await (await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`)).json();
    expect(judge.model.doGenerateCalls.length - before).toBe(5);
    const byTask = Object.fromEntries(report.cases.map((c: { task: string }) => [c.task, c]));
    expect(byTask["bad twice: never parses"]).toMatchObject({ status: "failed-to-judge", original: null, amended: null, change: null });
    expect(byTask["bad twice: never parses"].error).toBe("the model's answer did not fit the required schema");
    expect(byTask["bad once: parses second time"]).toMatchObject({ status: "judged", change: "improved" });
    expect(report).toMatchObject({ failedToJudge: 1, improved: 1, regressed: 1, unchanged: 0, verdict: "neutral", promotedVersion: null });
    const rows = await t.app.db.select().from(evaluationCases).where(eq(evaluationCases.evaluationId, report.id));
    expect(rows.map((r) => r.attempts).sort()).toEqual([1, 2, 2]);
  });

  it("lets only a lead override a verdict, and only with a written reason", async () => {
    await evaluateStaleAmendment();
    const amendment = (await (await t.call("GET", "/api/v1/skills/stale-skill/amendments")).json()).amendments[0];
    expect(amendment.evaluation.verdict).toBe("neutral");
    const byAgent = await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { key: writeKey, json: {} });
    expect(byAgent.status).toBe(403);
    expect(await errorOf(byAgent)).toEqual({
      code: "Forbidden",
      message: "promoting an amendment that is evaluated (a manual override) needs a lead or an admin key",
    });
    const noReason = await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { json: { reason: "  " } });
    expect(noReason.status).toBe(400);
    expect(await errorOf(noReason)).toEqual({
      code: "ReasonRequired",
      message: `Error [ReasonRequired]: promoting amendment #${amendment.id}, which is evaluated, is a manual override: it needs a written reason`,
    });
    const ok = await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, {
      json: { reason: "the failed case is a known flaky runner" },
    });
    expect(await ok.json()).toEqual({
      name: "stale-skill",
      version: 2,
      evaluationId: amendment.evaluation.id,
      override: true,
      served: { version: 2, why: "latest" },
    });
    const [event] = await t.app.db.select().from(skillEvents).where(eq(skillEvents.kind, "overridden"));
    expect(event!.detail).toMatchObject({
      overrideReason: "the failed case is a known flaky runner",
      verdict: "neutral",
      amendmentId: amendment.id,
    });
    expect(await errorOf(await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { json: { reason: "again" } }))).toEqual({
      code: "AmendmentStateChanged",
      message: `Error [AmendmentStateChanged]: amendment #${amendment.id} is promoted; promoting it needs it pending, evaluated or rejected`,
    });
    const [listed] = (await (await t.call("GET", "/api/v1/amendments?skill=stale-skill")).json()).amendments;
    expect(listed).toMatchObject({
      status: "promoted",
      verdict: "neutral",
      decidedBy: expect.stringMatching(/^key /),
      reason: "the failed case is a known flaky runner",
      rejection: null,
    });
  });

  it("with auto-promotion off, holds an improved amendment for a lead, who approves or rejects it, both in the history", async () => {
    const settings = await t.call("PATCH", "/api/v1/settings", { json: { autoPromote: false } });
    expect(await settings.json()).toEqual({
      cap: 8000,
      descMax: 60,
      loadHint: "skill_view",
      autoPromote: false,
      requireReasons: false,
      storePrompts: false,
      telemetryDays: 30,
    });
    expect(await (await t.call("GET", "/api/v1/settings", { key: writeKey })).json()).toMatchObject({ autoPromote: false });
    await observe(run("manual-skill", "better: the manual case", "failure"));
    const first = await amend("manual-skill", { body: "# manual\n\n1. Better.\n", rationale: "clearer" });
    const report = await (await t.call("POST", `/api/v1/amendments/${first.id}/evaluate`)).json();
    expect(report).toMatchObject({
      verdict: "improved",
      promotedVersion: null,
      promotionNote: "awaiting a lead's approval: auto-promotion is off for this team",
    });
    const listed = await (await t.call("GET", "/api/v1/skills/manual-skill/amendments")).json();
    expect(listed.amendments.map((a: { id: number; status: string }) => [a.id, a.status])).toEqual([[first.id, "awaiting-approval"]]);
    expect((await t.call("GET", "/api/v1/skills/manual-skill")).headers.get("x-skill-version")).toBe("1");

    // Approval is a lead's: neither a write key (promote or approve) nor an editor may give it.
    const byWriter = await t.call("POST", `/api/v1/amendments/${first.id}/promote`, { key: writeKey, json: {} });
    expect([byWriter.status, (await errorOf(byWriter)).message]).toEqual([403, "approving an amendment needs a lead or an admin key"]);
    expect((await t.call("POST", `/api/v1/amendments/${first.id}/approve`, { key: writeKey })).status).toBe(403);
    const editor = { kind: "person" as const, userId: 1, email: "editor@example.com", role: "editor" as const };
    await expect(approveAmendment(t.app, t.alpha.team, editor, first.id)).rejects.toThrow(
      "approving an amendment needs a lead or an admin key",
    );

    const approved = await t.call("POST", `/api/v1/amendments/${first.id}/approve`);
    expect(await approved.json()).toEqual({
      id: first.id,
      name: "manual-skill",
      version: 2,
      evaluationId: report.id,
      served: { version: 2, why: "latest" },
    });
    expect((await t.call("GET", "/api/v1/skills/manual-skill")).headers.get("x-skill-version")).toBe("2");
    expect(await (await t.call("GET", `/api/v1/evaluations/${report.id}`)).json()).toMatchObject({
      promotedVersion: 2,
      promotionNote: "approved by a lead",
    });
    const again = await t.call("POST", `/api/v1/amendments/${first.id}/approve`);
    expect([again.status, await errorOf(again)]).toEqual([
      409,
      {
        code: "AmendmentStateChanged",
        message: `Error [AmendmentStateChanged]: amendment #${first.id} is promoted; approving it needs it awaiting-approval`,
      },
    ]);

    const second = await amend("manual-skill", { body: "# manual\n\n1. Better still.\n", rationale: "even clearer" });
    await t.call("POST", `/api/v1/amendments/${second.id}/evaluate`);
    const noReason = await t.call("POST", `/api/v1/amendments/${second.id}/reject`, { json: { reason: "" } });
    expect(noReason.status).toBe(400);
    const rejected = await t.call("POST", `/api/v1/amendments/${second.id}/reject`, { json: { reason: "too terse for new hires" } });
    expect(await rejected.json()).toEqual({ id: second.id, status: "rejected" });
    expect((await t.call("POST", `/api/v1/amendments/${second.id}/approve`)).status).toBe(409);
    expect((await t.call("GET", "/api/v1/skills/manual-skill")).headers.get("x-skill-version")).toBe("2");
    const events = await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "manual-skill"));
    expect(events.filter((e) => e.kind === "approved").map((e) => [e.version, e.detail.amendmentId])).toEqual([[2, first.id]]);
    expect(events.filter((e) => e.kind === "rejected").map((e) => [e.version, e.detail])).toEqual([
      [2, { amendmentId: second.id, reason: "too terse for new hires" }],
    ]);
  });

  it("evaluates an amendment to a built-in skill and offers a patch instead of applying it", async () => {
    await observe(run("writing-plans", "better: plan the migration", "failure"));
    const amendment = await amend("writing-plans", {
      description: "Breaks work into small steps before coding starts; use when a task spans several changes.",
      rationale: "shorter",
    });
    const report = await (await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`)).json();
    expect(report).toMatchObject({
      verdict: "improved",
      promotedVersion: null,
      promotionNote: "builtin skills change in the repository: apply the patch and sync",
    });
    expect(report.patch.split("\n").slice(0, 2)).toEqual([
      "--- writing-plans/SKILL.md",
      `+++ writing-plans/SKILL.md (amendment #${amendment.id})`,
    ]);
    expect(report.patch).toContain(
      "+description: Breaks work into small steps before coding starts; use when a task spans several changes.",
    );
    const refused = await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { json: {} });
    expect(await errorOf(refused)).toEqual({
      code: "BuiltInImmutable",
      message: 'Error [BuiltInImmutable]: "writing-plans" is a built-in skill',
    });
  });

  it("answers inconclusive for a skill with no history", async () => {
    const res = await t.call("POST", "/api/v1/skills", {
      json: { name: "brand-new", description: "New. Use when new.", body: "x\n", status: "active" },
    });
    expect(res.status).toBe(201);
    const amendment = await amend("brand-new", { body: "y\n", rationale: "why not" });
    const report = await (await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`)).json();
    expect(report).toMatchObject({
      verdict: "inconclusive",
      delta: null,
      cases: [],
      improved: 0,
      regressed: 0,
      unchanged: 0,
      promotedVersion: null,
    });
  });

  it("generates an amendment from recent failures with the configured model", async () => {
    const generator = mockJudge(() =>
      JSON.stringify({
        description: "Guides quiet-skill. Use when it applies.",
        body: "# quiet\n\n1. Check partial runs first.\n",
        rationale: "three partial runs stopped early",
      }),
    );
    const g = await startTestApp("pglite", { model: generator });
    try {
      await g.call("POST", "/api/v1/skills", {
        json: { name: "gen-skill", description: "Gen. Use when generating.", body: "x\n", status: "active" },
      });
      expect(await errorOf(await g.call("POST", "/api/v1/skills/gen-skill/amendments/generate"))).toEqual({
        code: "Unprocessable",
        message: '"gen-skill" has no recorded failures to learn from; record observations first',
      });
      await g.call("POST", "/api/v1/observations", { json: run("gen-skill", "stopped early", "partial") });
      const res = await g.call("POST", "/api/v1/skills/gen-skill/amendments/generate");
      expect(res.status).toBe(201);
      const [listed] = (await (await g.call("GET", "/api/v1/skills/gen-skill/amendments")).json()).amendments;
      expect(listed).toMatchObject({
        origin: "generated",
        author: "key test",
        body: "# quiet\n\n1. Check partial runs first.\n",
        rationale: "three partial runs stopped early",
        status: "pending",
      });
      expect(JSON.stringify(generator.model.doGenerateCalls[0]!.prompt)).toContain("[partial] stopped early");
    } finally {
      await g.close();
    }
  });

  it("keeps amendments, evaluations and observations inside their team", async () => {
    await evaluateTagStep();
    const asBeta = { key: t.beta.key };
    const [amendment] = (await (await t.call("GET", "/api/v1/skills/deploy-guide/amendments")).json()).amendments;
    expect(await errorOf(await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`, asBeta))).toEqual({
      code: "AmendmentNotFound",
      message: `Error [AmendmentNotFound]: No amendment #${amendment.id} in this team.`,
    });
    expect((await t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { ...asBeta, json: { reason: "x" } })).status).toBe(404);
    expect((await t.call("GET", `/api/v1/evaluations/${amendment.evaluation.id}`, asBeta)).status).toBe(404);
    expect((await (await t.call("GET", "/api/v1/skills/deploy-guide/observations", asBeta)).json()).observations).toEqual([]);
    expect((await t.call("POST", "/api/v1/observations", { ...asBeta, json: run("deploy-guide", "x", "success") })).status).toBe(404);
    expect((await t.call("GET", "/api/v1/evaluations/abc")).status).toBe(400);
  });
});

describe("without a model", () => {
  it("answers NoModel 503 for evaluation and generation, and everything else works", async () => {
    const t = await startTestApp("pglite");
    try {
      await t.call("POST", "/api/v1/skills", {
        json: { name: "plain", description: "Plain. Use when plain.", body: "x\n", status: "active" },
      });
      expect(
        (await t.call("POST", "/api/v1/observations", { json: { skill: "plain", task: "t", category: "c", outcome: "failure" } })).status,
      ).toBe(201);
      const amendment = await (await t.call("POST", "/api/v1/skills/plain/amendments", { json: { body: "y\n", rationale: "r" } })).json();
      for (const res of [
        await t.call("POST", `/api/v1/amendments/${amendment.id}/evaluate`),
        await t.call("POST", "/api/v1/skills/plain/amendments/generate"),
      ]) {
        expect(res.status).toBe(503);
        expect(await errorOf(res)).toEqual({ code: "NoModel", message: "Error [NoModel]: set SKILLGATE_MODEL to evaluate amendments" });
      }
      expect((await t.call("GET", "/api/v1/listing")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

/**
 * Durable evaluations (issue 14): when the instance judging one dies, another takes it over, judges
 * only the cases left, stores the verdict and promotes, naming who started it.
 */
describe.each(testDbKinds)("an evaluation whose instance died, on %s", (kind) => {
  let judged = 0;
  // The first instance judges two cases, then hangs as a stopped process would.
  const dying = mockJudge(async (prompt) => {
    if (++judged > 2) await new Promise<void>(() => {});
    return judgeFor(prompt);
  });
  const t = useTestApp(kind, { model: dying, judgeConcurrency: 1 });

  it("is finished by another instance from the cases already judged, and promotes as the first would have", async () => {
    const created = await t.call("POST", "/api/v1/skills", {
      json: {
        name: "deploy-guide",
        description: "Guides deploys. Use when deploying.",
        body: "# deploy-guide\n\n1. Do the thing.\n",
        status: "active",
      },
    });
    expect(created.status).toBe(201);
    const tasks = ["better: deploy the api", "better: deploy the worker", "better: deploy the web", "same: deploy docs"];
    const observed = await t.call("POST", "/api/v1/observations", {
      json: { observations: tasks.map((task) => ({ skill: "deploy-guide", task, category: "deploy", outcome: "failure" })) },
    });
    expect(observed.status).toBe(201);
    const amendment = await (
      await t.call("POST", "/api/v1/skills/deploy-guide/amendments", {
        json: { body: "# deploy-guide\n\n1. Tag the release.\n2. Do the thing.\n", rationale: "failures forgot the tag" },
      })
    ).json();
    const member = { app: t.app, team: t.alpha.team };
    const { evaluationId } = await startEvaluation(member.app, { ...member.team, autoPromote: true }, { kind: "system" }, amendment.id);
    await expect
      .poll(async () => (await t.app.db.select().from(evaluations).where(eq(evaluations.id, evaluationId)))[0]?.casesDone)
      .toBe(2);
    // The instance goes away: closing it ends its leases at once (a killed one's run out on their own).
    await t.app.close();

    const judge = mockJudge(judgeFor);
    const other = anotherInstance(t.app, { model: judge, judgeConcurrency: 1 });
    try {
      expect(await recoverEvaluations(other)).toEqual([evaluationId]);
      await expect
        .poll(async () => (await t.app.db.select().from(evaluations).where(eq(evaluations.id, evaluationId)))[0]?.status)
        .toBe("finished");
      // Only the two cases the first instance had not judged were asked of the second.
      expect(judge.model.doGenerateCalls.length).toBe(2);
      const report = await (await t.call("GET", `/api/v1/evaluations/${evaluationId}`)).json();
      expect([report.verdict, report.improved, report.unchanged, report.casesDone, report.promotedVersion]).toEqual([
        "improved",
        3,
        1,
        4,
        2,
      ]);
      const [row] = await t.app.db.select().from(evaluations).where(eq(evaluations.id, evaluationId));
      expect(row!.leaseOwner?.startsWith(`${other.work.instanceId}:`)).toBe(true);
      const events = await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "deploy-guide"));
      expect(events.map((e) => [e.kind, e.version])).toEqual([
        ["created", 1],
        ["amended", 1],
        ["evaluated", 1],
        ["promoted", 2],
      ]);
    } finally {
      await other.close();
    }
  });
});

/**
 * An instance that takes back an evaluation it is itself still judging (its renewals held up past
 * the lease) must not finish it twice: the claim's token moves the work to the new worker, and the
 * old one stops at its next check.
 */
describe.each(testDbKinds)("an evaluation taken back by its own instance, on %s", (kind) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  const slow = mockJudge(async (prompt) => {
    calls++;
    await gate;
    return judgeFor(prompt);
  });
  const t = useTestApp(kind, { model: slow, judgeConcurrency: 1 });

  it("records one verdict, one event and one promotion", async () => {
    await t.call("POST", "/api/v1/skills", {
      json: { name: "deploy-guide", description: "Guides deploys. Use when deploying.", body: "# d\n\n1. x\n", status: "active" },
    });
    await t.call("POST", "/api/v1/observations", {
      json: {
        observations: ["better: a", "better: b"].map((task) => ({ skill: "deploy-guide", task, category: "deploy", outcome: "failure" })),
      },
    });
    const amendment = await (
      await t.call("POST", "/api/v1/skills/deploy-guide/amendments", { json: { body: "# d\n\n1. tag\n2. x\n", rationale: "tag" } })
    ).json();
    const { evaluationId, done } = await startEvaluation(t.app, { ...t.alpha.team, autoPromote: true }, { kind: "system" }, amendment.id);
    await expect.poll(() => calls).toBe(1);
    await t.app.db
      .update(evaluations)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(evaluations.id, evaluationId));
    expect(await recoverEvaluations(t.app)).toEqual([evaluationId]);
    release();
    await done;
    await expect
      .poll(async () => (await t.app.db.select().from(evaluations).where(eq(evaluations.id, evaluationId)))[0]?.status)
      .toBe("finished");
    // The first worker is done (awaited above); the one that took over runs in the background and
    // writes the promotion's listing snapshot last, after the verdict's transaction: once that is
    // there, it is done too.
    await waitFor(
      async () => (await t.app.db.$count(listingSnapshots, eq(listingSnapshots.cause, `amendment #${amendment.id} promoted`))) > 0,
      { what: "the listing snapshot of the promotion, the finishing worker's last write" },
    );
    const events = await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "deploy-guide"));
    expect(events.map((e) => e.kind)).toEqual(["created", "amended", "evaluated", "promoted"]);
    const [row] = await t.app.db.select().from(evaluations).where(eq(evaluations.id, evaluationId));
    expect([row!.verdict, row!.promotedVersion, row!.casesDone]).toEqual(["improved", 2, 2]);
  });
});
