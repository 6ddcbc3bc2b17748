import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/rows";
import { observations, productionPrompts, telemetryEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { updateTeamSettings } from "@/lib/listing/settings";
import { utcDay } from "@/lib/usage/rollups";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";
import { mockJudge } from "../helpers/judge";
import { countStatements } from "../helpers/statement-counter";
import { learnedAtVersions, skillMd, syncFile } from "../helpers/skills";
import { migrationStatements } from "../helpers/migration-sql";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender, type Person } from "../helpers/telemetry";

/**
 * Is a skill helping? Claude Code-shaped sessions with every event it sends (prompts, activations,
 * tool results, API requests, tool decisions, API errors) go through the OpenTelemetry JS SDK's own
 * exporters to the receiver; the figures per skill and version, the baseline, the flags and the
 * observations are then read back through the API and the database, exactly.
 */

const DAY = 86_400_000;
const ANA: Person = { email: "ana@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000a" };
const BEN: Person = { email: "ben@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000b" };
const session = (sessionId: string, person: Person = ANA): ClaudeCodeSession => ({ sessionId, person, sequence: 0 });

/** Noon UTC yesterday plus `seconds`: whole hours away from any midnight the test might cross. */
function at(seconds: number, daysBack = 1): Date {
  return new Date(Date.parse(`${utcDay(new Date())}T12:00:00.000Z`) - daysBack * DAY + seconds * 1000);
}

type Usage = {
  skills: { name: string; production: Record<string, unknown>; loadedThenFailing: boolean; costly: boolean }[];
  production: Record<"total" | "noSkill" | "beforeSkill" | "outsideRegistry", Record<string, unknown>>;
};

describe.each(testDbKinds)("production evidence from Claude Code's telemetry, on %s", (kind) => {
  const t = useTestApp(kind);
  let bridge: HttpBridge;
  let closing: LogSender[] = [];
  let key: string;

  beforeEach(async () => {
    bridge = await httpBridge();
    key = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "telemetry", scopes: ["telemetry"] })).key;
    await learnedAtVersions(t.call, "release-notes", 1);
  });
  afterEach(async () => {
    await Promise.all(closing.map((sender) => sender.close()));
    closing = [];
    await bridge.close();
  });

  function logs(): LogSender {
    const sender = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
    closing.push(sender);
    return sender;
  }

  const usage = async (): Promise<Usage> => (await t.call("GET", "/api/v1/usage")).json();
  const entry = async (name: string) => (await usage()).skills.find((skill) => skill.name === name);

  /**
   * One prompt as Claude Code reports it: the prompt, an API request before any skill, the skill's
   * activation, then per call a tool result and an API request naming the skill. `fails` of the
   * `calls` tool results fail (Bash, "Exit code 1").
   */
  function prompt(
    sender: LogSender,
    s: ClaudeCodeSession,
    promptId: string,
    { skill, calls, fails, costUsd, start }: { skill?: string; calls: number; fails: number; costUsd: number; start: number },
  ) {
    sender.userPrompt(s, { promptId, at: at(start) });
    if (skill) sender.skillActivated(s, { skill, trigger: "claude-proactive", promptId, at: at(start + 1) });
    for (let i = 0; i < calls; i++) {
      const failed = i < fails;
      sender.toolResult(s, {
        promptId,
        tool: failed ? "Bash" : "Read",
        success: !failed,
        ...(failed ? { error: "Exit code 1" } : {}),
        at: at(start + 2 + i),
      });
    }
    sender.apiRequest(s, { promptId, costUsd, inputTokens: 100, outputTokens: 10, ...(skill ? { skill } : {}), at: at(start + 2 + calls) });
  }

  it("attributes tool calls, failures, rejections, tokens and cost to the skill loaded, beside prompts with none; the parts add up to the total", async () => {
    const sender = logs();
    const s1 = session("s1");
    sender.userPrompt(s1, { promptId: "p1", at: at(0) });
    sender.apiRequest(s1, { promptId: "p1", costUsd: 0.01, inputTokens: 100, outputTokens: 20, at: at(1) });
    sender.skillActivated(s1, { skill: "release-notes", trigger: "claude-proactive", promptId: "p1", at: at(2) });
    sender.toolResult(s1, { promptId: "p1", tool: "Bash", success: false, error: "Exit code 3", at: at(3) });
    sender.toolResult(s1, { promptId: "p1", tool: "Read", success: true, at: at(4) });
    sender.apiRequest(s1, {
      promptId: "p1",
      costUsd: 0.03,
      inputTokens: 300,
      outputTokens: 40,
      cacheReadTokens: 10,
      skill: "release-notes",
      at: at(5),
    });
    sender.toolDecision(s1, { promptId: "p1", tool: "Edit", decision: "reject", source: "user_reject", at: at(6) });
    sender.toolDecision(s1, { promptId: "p1", tool: "Write", decision: "reject", source: "config", at: at(6) });
    sender.toolDecision(s1, { promptId: "p1", tool: "Read", decision: "accept", source: "config", at: at(6) });
    sender.other(s1, "api_error", { "prompt.id": "p1", model: "claude-sonnet-4-5", error: "overloaded", status_code: 529 });
    sender.toolResult(s1, { promptId: "p1", tool: "Bash", success: false, error: "Exit code 1", at: at(8) });
    const s2 = session("s2", BEN);
    sender.userPrompt(s2, { promptId: "p2", at: at(10) });
    sender.apiRequest(s2, { promptId: "p2", costUsd: 0.02, inputTokens: 150, outputTokens: 50, at: at(12) });
    sender.toolResult(s2, { promptId: "p2", tool: "Read", success: true, at: at(13) });
    sender.toolResult(s2, { promptId: "p2", tool: "Grep", success: false, error: "No matches", at: at(14) });
    sender.other(s2, "assistant_response", { "prompt.id": "p2" });
    await sender.flush();

    const report = await usage();
    const notes = report.skills.find((skill) => skill.name === "release-notes")!;
    const interval = (value: number, low: number, high: number) => ({
      value: expect.closeTo(value, 4),
      low: expect.closeTo(low, 4),
      high: expect.closeTo(high, 4),
    });
    expect(notes.production).toEqual({
      prompts: 1,
      toolCalls: 3,
      toolFailures: 2,
      failureRate: interval(0.666667, 0.20766, 0.938508),
      rejections: 1,
      costUsd: expect.closeTo(0.03, 9),
      tokens: 350,
      medianPromptMs: 8000,
    });
    expect([notes.loadedThenFailing, notes.costly]).toEqual([false, false]);
    expect(report.production.noSkill).toEqual({
      prompts: 1,
      toolCalls: 2,
      toolFailures: 1,
      failureRate: interval(0.5, 0.094531, 0.905469),
      rejections: 0,
      costUsd: expect.closeTo(0.02, 9),
      tokens: 200,
      medianPromptMs: 4000,
    });
    expect(report.production.beforeSkill).toEqual({
      prompts: 1,
      toolCalls: 0,
      toolFailures: 0,
      failureRate: null,
      rejections: 0,
      costUsd: expect.closeTo(0.01, 9),
      tokens: 120,
      medianPromptMs: 8000,
    });
    expect(report.production.total).toEqual({
      prompts: 2,
      toolCalls: 5,
      toolFailures: 3,
      failureRate: interval(0.6, 0.230724, 0.882379),
      rejections: 1,
      costUsd: expect.closeTo(0.06, 9),
      tokens: 670,
      medianPromptMs: 6000,
    });
    // Reconciled: every skill's figures and the three parts sum to the team's total for the same days.
    const parts = [
      ...report.skills.map((skill) => skill.production),
      report.production.noSkill,
      report.production.beforeSkill,
      report.production.outsideRegistry,
    ];
    for (const field of ["toolCalls", "toolFailures", "rejections", "tokens"] as const) {
      expect(parts.reduce((sum, part) => sum + (part[field] as number), 0)).toBe(report.production.total[field]);
    }
    expect(parts.reduce((sum, part) => sum + (part.costUsd as number), 0)).toBeCloseTo(report.production.total.costUsd as number, 9);

    // What was stored: the API error, the assistant response and the non-personal decisions were not.
    const kinds = await t.app.db
      .select({ kind: telemetryEvents.kind, count: sql<number>`count(*)::int` })
      .from(telemetryEvents)
      .groupBy(telemetryEvents.kind)
      .orderBy(telemetryEvents.kind);
    expect(kinds).toEqual([
      { kind: "activation", count: 1 },
      { kind: "api_request", count: 3 },
      { kind: "prompt", count: 2 },
      { kind: "tool_rejection", count: 1 },
      { kind: "tool_result", count: 5 },
    ]);
  });

  it("answers per version, beside the previous version and no skill, comparing only past the minimum sample", async () => {
    const sender = logs();
    const s = session("versions");
    // v1: 10 prompts, 40 tool calls, 2 failing.
    for (let i = 0; i < 10; i++)
      prompt(sender, s, `v1-${i}`, { skill: "release-notes", calls: 4, fails: i < 2 ? 1 : 0, costUsd: 0.02, start: i * 20 });
    // No skill: 10 prompts, 40 calls, 2 failing.
    for (let i = 0; i < 10; i++) prompt(sender, s, `none-${i}`, { calls: 4, fails: i < 2 ? 1 : 0, costUsd: 0.02, start: 400 + i * 20 });
    await sender.flush();
    const updated = await t.call("PUT", "/api/v1/skills/release-notes", {
      json: { description: "Writes release notes, take 2. Use when shipping.", body: "# v2\n", expectedVersion: 1 },
    });
    expect(updated.status).toBe(200);
    // v2, made just now: two prompts first (n too small), then 8 more — 40 calls, 30 failing.
    const late = session("v2");
    const v2 = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        sender.userPrompt(late, { promptId: `v2-${i}` });
        sender.skillActivated(late, { skill: "release-notes", trigger: "claude-proactive", promptId: `v2-${i}` });
        for (let c = 0; c < 4; c++)
          sender.toolResult(late, {
            promptId: `v2-${i}`,
            tool: c < 3 ? "Bash" : "Read",
            success: c >= 3,
            ...(c < 3 ? { error: "Exit code 2" } : {}),
          });
        sender.apiRequest(late, { promptId: `v2-${i}`, costUsd: 0.1, inputTokens: 1000, outputTokens: 100, skill: "release-notes" });
      }
    };
    v2(0, 2);
    await sender.flush();
    const early = (await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json()) as {
      versions: {
        version: number;
        production: Record<string, unknown>;
        failingTools: unknown[];
        failureRateVsPrevious: string | null;
        failureRateVsNoSkill: string;
      }[];
      noSkill: Record<string, unknown>;
    };
    expect(
      early.versions.map((v) => [
        v.version,
        v.production.prompts,
        v.production.toolCalls,
        v.production.toolFailures,
        v.failureRateVsPrevious,
        v.failureRateVsNoSkill,
      ]),
    ).toEqual([
      [1, 10, 40, 2, null, "no clear difference"],
      [2, 2, 8, 6, "n too small", "n too small"],
    ]);
    v2(2, 10);
    await sender.flush();
    const later = (await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json()) as typeof early;
    expect(
      later.versions.map((v) => [
        v.version,
        v.production.prompts,
        v.production.toolCalls,
        v.production.toolFailures,
        v.failureRateVsPrevious,
        v.failureRateVsNoSkill,
      ]),
    ).toEqual([
      [1, 10, 40, 2, null, "no clear difference"],
      [2, 10, 40, 30, "higher", "higher"],
    ]);
    expect(later.versions[1]!.failingTools).toEqual([{ tool: "Bash", failures: 30, error: null }]);
    expect(later.versions[1]!.production.costUsd).toBeCloseTo(1, 9);
    expect(later.versions[1]!.production.tokens).toBe(11_000);
    expect(later.noSkill).toMatchObject({ prompts: 10, toolCalls: 40, toolFailures: 2 });

    // The overview's flags: failing beyond the baseline's interval, and 5× its cost per prompt (30 days, both versions).
    const notes = await entry("release-notes");
    expect([notes!.production.prompts, notes!.production.toolFailures, notes!.loadedThenFailing, notes!.costly]).toEqual([
      20,
      32,
      true,
      true,
    ]);
  });

  it("gives a prompt that arrives after a skill's new version, but happened before it, the version then live: learned and file skills", async () => {
    const sync = (body: string) =>
      t.call("POST", "/api/v1/skills/sync", {
        json: { files: [syncFile("deploy/SKILL.md", skillMd("deploy", "Deploys. Use when shipping.", body))] },
      });
    expect((await sync("# v1\n")).status).toBe(200);
    // A moment after both v1s were made and before both v2s: when the late prompt happened.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const then = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const updated = await t.call("PUT", "/api/v1/skills/release-notes", {
      json: { description: "Writes release notes, take 2. Use when shipping.", body: "# v2\n", expectedVersion: 1 },
    });
    expect(updated.status).toBe(200);
    expect((await sync("# v2\n")).status).toBe(200);

    const sender = logs();
    const s = session("late-batch");
    for (const [promptId, when] of [
      ["then", then],
      ["now", undefined],
    ] as const) {
      for (const skill of ["release-notes", "deploy"]) {
        const id = `${promptId}-${skill}`;
        sender.userPrompt(s, { promptId: id, ...(when ? { at: when } : {}) });
        sender.skillActivated(s, { skill, trigger: "claude-proactive", promptId: id, ...(when ? { at: when } : {}) });
        sender.toolResult(s, { promptId: id, tool: "Bash", success: false, error: "Exit code 1", ...(when ? { at: when } : {}) });
      }
    }
    await sender.flush();

    const settled = await t.app.db
      .select({ promptId: productionPrompts.promptId, skill: productionPrompts.skillName, version: productionPrompts.version })
      .from(productionPrompts)
      .where(eq(productionPrompts.sessionId, "late-batch"))
      .orderBy(productionPrompts.promptId);
    expect(settled).toEqual([
      { promptId: "now-deploy", skill: "deploy", version: 2 },
      { promptId: "now-release-notes", skill: "release-notes", version: 2 },
      { promptId: "then-deploy", skill: "deploy", version: 1 },
      { promptId: "then-release-notes", skill: "release-notes", version: 1 },
    ]);
    const observed = await t.app.db
      .select({ promptId: observations.promptId, skill: observations.skillName, version: observations.version })
      .from(observations)
      .where(eq(observations.sessionId, "late-batch"))
      .orderBy(observations.promptId);
    expect(observed).toEqual(settled);
  });

  it("writes a warm batch and settles its prompts in two statements under the team's lock, and its transaction in one call on PGlite", async () => {
    const sender = logs();
    prompt(sender, session("warm"), "p1", { skill: "release-notes", calls: 2, fails: 1, costUsd: 0.01, start: 0 });
    await sender.flush();
    const counter = countStatements(t.app.db);
    try {
      prompt(sender, session("warm"), "p2", { skill: "release-notes", calls: 3, fails: 2, costUsd: 0.01, start: 20 });
      await sender.flush();
    } finally {
      counter.stop();
    }
    const firstWords = counter.statements.map((statement) => statement.split(" ").slice(0, 2).join(" "));
    // begin; the team's lock; the batch, which reads its prompts back; settling's write; commit.
    expect(firstWords).toEqual(
      kind === "pglite" ? ["transaction"] : ["begin", "select pg_advisory_xact_lock($1,", "with incoming", "with incoming", "commit"],
    );
    expect(await t.app.db.$count(productionPrompts, eq(productionPrompts.sessionId, "warm"))).toBe(2);
    expect(await t.app.db.$count(observations, eq(observations.sessionId, "warm"))).toBe(2);
  });

  it("attributes a tool result that came a batch before its skill's activation to that skill, and settles the prompt again", async () => {
    const s = session("late-activation");
    const first = logs();
    const second = logs();
    second.userPrompt(s, { promptId: "p", at: at(0) });
    first.skillActivated(s, { skill: "release-notes", trigger: "claude-proactive", promptId: "p", at: at(1) });
    second.toolResult(s, { promptId: "p", tool: "Bash", success: false, error: "Exit code 1", at: at(2) });
    await second.flush();
    expect((await entry("release-notes"))?.production.toolFailures ?? 0).toBe(0);
    expect((await usage()).production.noSkill).toMatchObject({ prompts: 1, toolCalls: 1, toolFailures: 1 });
    await first.flush();
    expect((await entry("release-notes"))!.production).toMatchObject({ prompts: 1, toolCalls: 1, toolFailures: 1 });
    expect((await usage()).production.noSkill).toMatchObject({ prompts: 0, toolCalls: 0, toolFailures: 0 });
    const rows = await t.app.db.select({ skill: productionPrompts.skillName, version: productionPrompts.version }).from(productionPrompts);
    expect(rows).toEqual([{ skill: "release-notes", version: 1 }]);
    const made = await t.app.db.select({ skill: observations.skillName, version: observations.version }).from(observations);
    expect(made).toEqual([{ skill: "release-notes", version: 1 }]);
  });

  it("adds the team's figures up from the daily rollup exactly as from the prompts' own rows, however the events arrived; the migration's backfill makes the same rollup", async () => {
    // 30 prompts of 3 kinds (release-notes, a skill outside the catalog, none), their times spread
    // from 2.0 s to 12.6 s, some of them 1% apart (one 2% bucket); each third prompt's activation
    // comes a batch after its tool results, which moves its figures from "none" to the skill.
    const early = logs();
    const late = logs();
    for (let i = 0; i < 30; i++) {
      const s = session(`rollup-${i % 4}`, i % 2 === 0 ? ANA : BEN);
      const promptId = `p${i}`;
      const skill = i % 3 === 0 ? undefined : i % 3 === 1 ? "release-notes" : "not-in-catalog";
      const start = i * 100;
      const calls = i % 10;
      early.userPrompt(s, { promptId, at: at(start) });
      if (skill) (i % 9 === 1 ? late : early).skillActivated(s, { skill, trigger: "claude-proactive", promptId, at: at(start + 1) });
      for (let c = 0; c < calls; c++) {
        early.toolResult(s, { promptId, tool: c % 3 === 0 ? "Bash" : "Read", success: c % 3 !== 0, at: at(start + 2 + c) });
      }
      early.apiRequest(s, {
        promptId,
        costUsd: 0.01 * (i + 1),
        inputTokens: 10 * i,
        outputTokens: 5,
        at: at(start + 2 + calls + (i % 7) * 0.1),
      });
    }
    await early.flush();
    await late.flush();

    // What the per-prompt rows say, added up as the figures were before the rollup.
    const exact = rowsOf<{
      part: string;
      prompts: number;
      calls: number;
      failures: number;
      rejections: number;
      cost: number;
      tokens: number;
      median: number;
    }>(
      await t.app.db.execute(sql`
        select part, count(*)::int as prompts, sum(calls)::int as calls, sum(failures)::int as failures, sum(rejections)::int as rejections,
               sum(cost)::float8 as cost, sum(tokens)::int as tokens, percentile_cont(0.5) within group (order by ms)::float8 as median
        from (
          select case when skill_name <> '' then skill_name when loaded then ' before' else ' none' end as part,
                 tool_calls as calls, tool_failures as failures, rejections, cost_usd as cost, tokens, prompt_ms as ms
          from production_prompts
          union all
          select ' total', sum(tool_calls), sum(tool_failures), sum(rejections), sum(cost_usd), sum(tokens), max(prompt_ms)
          from production_prompts group by session_id, prompt_id
        ) parts
        group by part order by part`),
    );
    expect(exact.map((row) => row.part)).toEqual([" before", " none", " total", "not-in-catalog", "release-notes"]);
    expect(exact.find((row) => row.part === " total")!.prompts).toBe(30);
    const report = await usage();
    const read: Record<string, Record<string, unknown>> = {
      " before": report.production.beforeSkill,
      " none": report.production.noSkill,
      " total": report.production.total,
      "not-in-catalog": report.production.outsideRegistry,
      "release-notes": report.skills.find((skill) => skill.name === "release-notes")!.production,
    };
    for (const row of exact) {
      expect(read[row.part], row.part).toMatchObject({
        prompts: row.prompts,
        toolCalls: row.calls,
        toolFailures: row.failures,
        rejections: row.rejections,
        costUsd: expect.closeTo(row.cost, 9),
        tokens: row.tokens,
      });
      // A prompt's time is its bucket's mean: within the bucket's 2% of the exact median (outsideRegistry, a sum of parts, has none).
      if (row.part === "not-in-catalog") continue;
      const median = read[row.part]!.medianPromptMs as number;
      expect(Math.abs(median - row.median) / row.median, `${row.part}: ${median} against ${row.median}`).toBeLessThanOrEqual(0.02);
    }

    // The migration fills the rollup from history already settled with the same rows settling wrote.
    const rollup = async () =>
      rowsOf<Record<string, unknown>>(
        await t.app.db.execute(sql`
          select day::text, part, bucket, prompts, tool_calls::int, tool_failures::int, rejections::int, round(cost_usd::numeric, 9)::text as cost,
                 tokens::int, prompt_ms::int
          from production_days where prompts <> 0 order by day, part, bucket`),
      );
    const settled = await rollup();
    expect(settled.length).toBeGreaterThan(10);
    await t.app.db.execute(sql`delete from production_days`);
    for (const statement of migrationStatements("0036_production_days.sql", "-- Backfill")) await t.app.db.execute(sql.raw(statement));
    expect(await rollup()).toEqual(settled);
  });

  it("answers a burst of 2,000 reads of the figures at once alike, or Overloaded past the queue's wait: usage, versions and muted tools", async () => {
    const sender = logs();
    prompt(sender, session("burst"), "p", { skill: "release-notes", calls: 3, fails: 2, costUsd: 0.05, start: 0 });
    await sender.flush();
    const paths = ["/api/v1/usage", "/api/v1/skills/release-notes/versions", "/api/v1/skills/release-notes/muted-tools"];
    const answers = await Promise.all(
      Array.from({ length: 2000 }, async (_, i) => {
        const res = await t.call("GET", paths[i % 3]!);
        return { path: i % 3, status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
      }),
    );
    // Load is not an outage: each read either answers or, past the bounded wait for a connection
    // (a server's pool under a 2,000-request burst), says Overloaded with when to come back.
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.filter((answer) => answer.status !== 503 || answer.retryAfter === null)).toEqual([]);
    expect(new Set(refused.map((answer) => JSON.parse(answer.body).error.code))).toEqual(new Set(refused.length ? ["Overloaded"] : []));
    for (const [i, path] of paths.entries()) {
      const served = answers.filter((answer) => answer.path === i && answer.status === 200).map((answer) => answer.body);
      expect(new Set(served).size, path).toBeLessThanOrEqual(1);
    }
    // The burst over, every figure answers, the same as during it.
    const after = await Promise.all(paths.map(async (path) => (await t.call("GET", path)).text()));
    for (const [i, body] of after.entries()) {
      const during = answers.find((answer) => answer.path === i && answer.status === 200);
      if (during) expect(body).toBe(during.body);
    }
    expect(JSON.parse(after[1]!).versions[0].production).toMatchObject({ prompts: 1, toolCalls: 3, toolFailures: 2 });
  });

  it("counts a batch sent 16 times at once once: raw events, figures and observations", async () => {
    const sender = logs();
    prompt(sender, session("copies"), "p", { skill: "release-notes", calls: 3, fails: 2, costUsd: 0.05, start: 0 });
    await sender.flush();
    const [sent] = bridge.exchanges();
    const copies = await Promise.all(
      Array.from({ length: 16 }, () =>
        fetch(`${bridge.url}/api/otlp/v1/logs`, {
          method: "POST",
          headers: { "content-type": sent!.headers["content-type"]!, authorization: `Bearer ${key}` },
          body: new Uint8Array(sent!.body),
        }),
      ),
    );
    expect(copies.map((res) => res.status)).toEqual(Array(16).fill(200));
    expect((await entry("release-notes"))!.production).toMatchObject({
      prompts: 1,
      toolCalls: 3,
      toolFailures: 2,
      costUsd: 0.05,
      tokens: 110,
    });
    const [events] = await t.app.db.select({ count: sql<number>`count(*)::int` }).from(telemetryEvents);
    expect(events!.count).toBe(6);
    const [made] = await t.app.db.select({ count: sql<number>`count(*)::int` }).from(observations);
    expect(made!.count).toBe(1);
  });

  it("makes one telemetry observation per failing prompt with the version then live; the error only when the team stores prompts", async () => {
    const sender = logs();
    prompt(sender, session("quiet"), "p1", { skill: "release-notes", calls: 3, fails: 2, costUsd: 0.01, start: 0 });
    prompt(sender, session("quiet"), "p2", { skill: "release-notes", calls: 2, fails: 0, costUsd: 0.01, start: 20 });
    await sender.flush();
    await updateTeamSettings(t.app.db, t.app.catalogs, t.alpha.team.id, { storePrompts: true });
    const updated = await t.call("PUT", "/api/v1/skills/release-notes", {
      json: { description: "Writes release notes, take 2. Use when shipping.", body: "# v2\n", expectedVersion: 1 },
    });
    expect(updated.status).toBe(200);
    const s = session("told");
    sender.userPrompt(s, { promptId: "p3", prompt: "write the release notes for 4.2" });
    sender.skillActivated(s, { skill: "release-notes", trigger: "user-slash", promptId: "p3" });
    sender.toolResult(s, { promptId: "p3", tool: "Read", success: false, error: "File does not exist: CHANGELOG.md" });
    sender.toolResult(s, { promptId: "p3", tool: "Bash", success: false, error: "git: not a repository" });
    sender.toolResult(s, { promptId: "p3", tool: "Read", success: false, error: "File does not exist: NEWS.md" });
    await sender.flush();

    const listed = (await (await t.call("GET", "/api/v1/skills/release-notes/observations?source=telemetry")).json()).observations;
    expect(
      listed.map((o: Record<string, unknown>) => [
        o.version,
        o.promptId,
        o.sessionId,
        o.outcome,
        o.source,
        o.task,
        o.failedToolCalls,
        o.toolsCalled,
        o.feedback,
      ]),
    ).toEqual([
      [
        2,
        "p3",
        "told",
        "failure",
        "telemetry",
        "write the release notes for 4.2",
        ["Read", "Bash"],
        ["Read", "Bash"],
        "Read failed 2 times: File does not exist: CHANGELOG.md; Bash failed 1 time: git: not a repository",
      ],
      [
        1,
        "p1",
        "quiet",
        "failure",
        "telemetry",
        "A prompt in session quiet (the team does not store prompt texts)",
        ["Bash"],
        ["Bash", "Read"],
        "Bash failed 2 times",
      ],
    ]);
    // Recorded runs are apart: the observation totals (success rates) count only them.
    expect((await (await t.call("GET", "/api/v1/skills/release-notes/observations?source=api")).json()).observations).toEqual([]);
  });

  it("makes no observation of a muted tool's failures; a lead mutes and unmutes, a read key cannot", async () => {
    const reader = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read"] })).key;
    expect(await errorOf(await t.call("PUT", "/api/v1/skills/release-notes/muted-tools/Bash", { key: reader }))).toMatchObject({
      code: "Forbidden",
    });
    expect(await errorOf(await t.call("PUT", "/api/v1/skills/no-such-skill/muted-tools/Bash"))).toEqual({
      code: "SkillNotFound",
      message: "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills.",
    });
    const tooLong = await t.call("PUT", `/api/v1/skills/release-notes/muted-tools/${"x".repeat(201)}`);
    expect(tooLong.status).toBe(400);
    const control = await t.call("PUT", "/api/v1/skills/release-notes/muted-tools/Ba%07sh");
    expect([control.status, (await errorOf(control)).code]).toEqual([400, "InvalidPath"]);
    const muted = await Promise.all(Array.from({ length: 16 }, () => t.call("PUT", "/api/v1/skills/release-notes/muted-tools/Bash")));
    expect(muted.map((res) => res.status)).toEqual(Array(16).fill(200));
    expect(await (await t.call("GET", "/api/v1/skills/release-notes/muted-tools")).json()).toEqual({
      name: "release-notes",
      mutedTools: ["Bash"],
    });

    const sender = logs();
    prompt(sender, session("own-tests"), "only-bash", { skill: "release-notes", calls: 3, fails: 2, costUsd: 0.01, start: 0 });
    const s = session("mixed");
    sender.skillActivated(s, { skill: "release-notes", trigger: "claude-proactive", promptId: "mixed" });
    sender.toolResult(s, { promptId: "mixed", tool: "Bash", success: false, error: "1 test failed" });
    sender.toolResult(s, { promptId: "mixed", tool: "Write", success: false, error: "Permission denied" });
    await sender.flush();
    const made = await t.app.db
      .select({ prompt: observations.promptId, failed: observations.failedToolCalls })
      .from(observations)
      .where(and(eq(observations.teamId, t.alpha.team.id), eq(observations.source, "telemetry")));
    expect(made).toEqual([{ prompt: "mixed", failed: ["Write"] }]);
    // The figures still count what happened.
    expect((await entry("release-notes"))!.production).toMatchObject({ toolCalls: 5, toolFailures: 4 });

    expect(await (await t.call("DELETE", "/api/v1/skills/release-notes/muted-tools/Bash")).json()).toEqual({
      name: "release-notes",
      mutedTools: [],
    });
  });
});

describe.each(testDbKinds)("an amendment generated from production failures, on %s", (kind) => {
  const generator = mockJudge(() =>
    JSON.stringify({
      description: "Writes release notes. Use when shipping.",
      body: "# release notes\n\n1. Find the changelog first: CHANGELOG.md may not exist; try NEWS.md and the git log.\n",
      rationale: "the agent read a CHANGELOG.md that does not exist",
    }),
  );
  const t = useTestApp(kind, { model: generator });
  let bridge: HttpBridge;
  beforeEach(async () => {
    bridge = await httpBridge();
  });
  afterEach(async () => bridge.close());

  it("starts from what failed in production: the prompt, the tools and their errors", async () => {
    await learnedAtVersions(t.call, "release-notes", 1);
    await updateTeamSettings(t.app.db, t.app.catalogs, t.alpha.team.id, { storePrompts: true });
    const key = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "telemetry", scopes: ["telemetry"] })).key;
    const sender = claudeCodeLogs({ endpoint: `${bridge.url}/api/otlp`, key });
    const s = session("prod");
    sender.userPrompt(s, { promptId: "p1", prompt: "write the release notes for 4.2" });
    sender.skillActivated(s, { skill: "release-notes", trigger: "claude-proactive", promptId: "p1" });
    sender.toolResult(s, { promptId: "p1", tool: "Read", success: false, error: "File does not exist: CHANGELOG.md" });
    await sender.flush();
    await sender.close();

    const res = await t.call("POST", "/api/v1/skills/release-notes/amendments/generate");
    expect(res.status).toBe(201);
    const prompt = JSON.stringify(generator.model.doGenerateCalls.at(-1)!.prompt);
    expect(prompt).toContain(
      JSON.stringify(
        "1. [failure, tool-failure] write the release notes for 4.2\n   feedback: Read failed 1 time: File does not exist: CHANGELOG.md",
      ).slice(1, -1),
    );
  });
});
