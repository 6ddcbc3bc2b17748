import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseConfig } from "@/db/client";
import { createApiKey } from "@/lib/auth/api-keys";
import { applyInitConfig } from "@/lib/teams/init";
import { launchBrowser, seriousViolationsHere, signInAt } from "../helpers/browser";
import { claudeCodeBinary, readmeSettingsEnv, runClaudeCode, type ClaudeCodeResult } from "../helpers/claude-code";
import { startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic";
import { scratchDatabase, type ScratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

const ADMIN_KEY = "sg_claude_code_test_admin_key_0040";
const LEAD = { email: "lead@example.com", password: "a lead's long password" };
const SKILL = {
  name: "deploy-notes",
  description: "Writes deploy notes. Use when shipping.",
  body: "# Deploy notes\nRun the checks first.\n",
};
/** Claude Code's session, chosen by the test (`--session-id`), so the events' keys are known in advance. */
const SESSION = "5e55a0e0-0040-4000-8000-00000000c1a0";

/**
 * The real Claude Code CLI (the pinned `@anthropic-ai/claude-code` from the npm registry), set up
 * only as the README's "Connect Claude Code" says — its `env` block in `~/.claude/settings.json`,
 * with a telemetry-only key — on a Skillgate server of the test's own, with a fake model that loads
 * a skill of the team's catalog, runs a command that fails, and answers. What the CLI sent is then
 * read back through the API and from the database. tests/fixtures/claude-code-events.json holds the
 * same session as the CLI sends it (scripts/capture-claude-code-events.ts).
 */
describe("the real Claude Code CLI, connected as the README says", () => {
  let server: RunningServer;
  let model: FakeAnthropic;
  let scratch: ScratchDatabase | null = null;
  let database: DatabaseConfig;
  let telemetryKey = "";
  let run: ClaudeCodeResult;
  const today = new Date().toISOString().slice(0, 10);
  const api = (route: string, init: { body?: unknown } = {}) =>
    fetch(`${server.url}${route}`, {
      method: init.body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  beforeAll(async () => {
    // PostgreSQL where the tests have one, else PGlite (read back once the server has stopped).
    scratch = process.env.TEST_DATABASE_URL ? await scratchDatabase("skillgate_claude_code") : null;
    database = scratch ? { url: scratch.url } : { dataDir: mkdtempSync(path.join(tmpdir(), "skillgate-claude-code-")) };
    // The key a lead makes in Settings → API keys with "telemetry only", made here before the server starts.
    const seeding = await openDatabase(database);
    try {
      await seeding.migrate();
      const [team] = await applyInitConfig(seeding.db, {
        teams: ["claude-code"],
        apiKeys: [ADMIN_KEY],
        userEmails: [LEAD.email],
        userPasswords: [LEAD.password],
      });
      telemetryKey = (await createApiKey(seeding.db, { teamId: team!.id, name: "claude-code laptops", scopes: ["telemetry"] })).key;
    } finally {
      await seeding.close();
    }
    server = await startServer({
      ...(scratch ? { DATABASE_URL: scratch.url } : { SKILLGATE_DATA_DIR: database.dataDir! }),
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "claude-code",
      SKILLGATE_INIT_API_KEY: ADMIN_KEY,
    });
    const created = await api("/api/v1/skills", { body: { ...SKILL, status: "active" } });
    expect(created.status).toBe(201);
    // The receiver's first request loads its route: done here, so the CLI's export as it exits
    // (given 2 s at most by Claude Code) meets a warm server however loaded the machine is.
    expect((await fetch(`${server.url}/api/otlp/v1/logs`, { method: "POST" })).status).toBe(401);
    model = await startFakeAnthropic({
      skill: SKILL.name,
      failing: { tool: "Bash", input: { command: "exit 3", description: "Check the deploy" } },
      answer: "Deploy notes written.",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await scratch?.drop();
  });

  it("runs a prompt that loads the team's skill, runs a failing command and answers", async () => {
    // Fails, saying why, where the binary is missing or does not run: never skipped.
    const { path: binary, version } = claudeCodeBinary();
    expect(version).toBe("2.1.332");
    run = await runClaudeCode({
      binary,
      modelUrl: model.baseUrl,
      settingsEnv: readmeSettingsEnv(`${server.url}/api/otlp`, telemetryKey),
      skills: [SKILL],
      prompt: "Write the deploy notes for today's release",
      sessionId: SESSION,
      allowedTools: ["Bash", "Skill"],
    });
    expect([run.code, run.stderr], run.stdout).toEqual([0, ""]);
    expect(run.result).toMatchObject({ is_error: false, result: "Deploy notes written.", session_id: SESSION });
    // Three answers of the model, each costing what its usage says at the model's price.
    expect(run.result!.total_cost_usd).toBeCloseTo(3 * 0.00726, 10);
    expect(model.requests.map((request) => `${request.method} ${request.path} → ${request.answered}`)).toEqual([
      "HEAD /api/hello → probe",
      "POST /v1/messages → skill",
      "POST /v1/messages → failing-tool",
      "POST /v1/messages → answer",
    ]);
    // The model's second call saw the skill's call and its result; the third, the command's failure.
    expect(JSON.stringify(model.requests[3]!.body!.messages)).toContain("Exit code 3");
  });

  it("counts the skill as chosen by the model, once, in GET /api/v1/usage", async () => {
    // Claude Code waits for its export before it exits; should the export outlast its wait, the
    // server still takes the batch: read until it has.
    const entry = await waitUntil(
      async () =>
        ((await (await api("/api/v1/usage")).json()) as { skills: { name: string }[] }).skills.find((skill) => skill.name === SKILL.name),
      (found) => found !== undefined,
      { what: "the CLI's telemetry to reach the usage", timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(entry).toEqual({
      name: SKILL.name,
      views7d: 0,
      views30d: 0,
      lastViewedAt: null,
      sessions: 0,
      activations: { proactive: 1, slash: 0, nested: 0 },
      people: 1,
      typedOnly: false,
      proactivePer100Prompts: 100,
      production: expect.any(Object),
      // One prompt: below every minimum sample, so no flag.
      loadedThenFailing: false,
      costly: false,
    });

    // What happened while it was loaded: the Bash call that failed, and the two model calls that
    // named the skill. The call that chose it came back after the activation but named no skill,
    // and the Skill tool's own result is the loading itself (tests/fixtures/claude-code-events.json).
    const production = (entry as unknown as { production: Record<string, unknown> }).production;
    expect(production).toEqual({
      prompts: 1,
      toolCalls: 1,
      toolFailures: 1,
      failureRate: { value: 1, low: expect.closeTo(0.206549, 5), high: 1 },
      rejections: 0,
      costUsd: expect.closeTo(2 * 0.00726, 10),
      tokens: 2 * 2340,
      medianPromptMs: expect.any(Number),
    });
    const usage = (await (await api("/api/v1/usage")).json()) as { production: Record<string, Record<string, unknown>> };
    expect(usage.production.beforeSkill).toMatchObject({ prompts: 1, toolCalls: 0, costUsd: expect.closeTo(0.00726, 10), tokens: 2340 });
    expect(usage.production.total).toMatchObject({ prompts: 1, toolCalls: 1, toolFailures: 1, costUsd: expect.closeTo(3 * 0.00726, 10) });
    // The failure is an observation of v1, for amendments to start from.
    const observed = (await (await api(`/api/v1/skills/${SKILL.name}/observations?source=telemetry`)).json()) as {
      observations: Record<string, unknown>[];
    };
    expect(observed.observations.map((o) => [o.version, o.sessionId, o.outcome, o.failedToolCalls, o.feedback])).toEqual([
      [1, SESSION, "failure", ["Bash"], "Bash failed 1 time"],
    ]);
  });

  it("shows that activation and that failure on the skill page's production figures", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await signInAt(page, `${server.url}/t/claude-code/skills/${SKILL.name}`, LEAD);
      const cells = await page.locator('[data-figures="1"]').locator("td").allTextContents();
      // Version, failure rate (interval), tool calls, against no skill, prompts, cost and tokens per activation, [time], rejections.
      expect([...cells.slice(0, 7), cells[8]]).toEqual(["v1", "100.0% (20.7–100.0%)", "1", "n too small", "1", "$0.015", "4,680", "0"]);
      expect(await page.locator('[data-failing-version="1"] [data-failing-tool="Bash"] > span').allTextContents()).toEqual([
        "Bash",
        "failed 1 time",
        // A lead may mute it.
        "Mute",
      ]);
      expect(await seriousViolationsHere(page)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("stored the prompt and the activation, and counted every record the CLI sent", async () => {
    // The person is Claude Code's `user.id` (no email with an API key): the device id the model saw.
    const { device_id: person } = JSON.parse((model.requests[1]!.body as unknown as { metadata: { user_id: string } }).metadata.user_id);
    expect(person).toMatch(/^[0-9a-f]{64}$/);
    expect(await server.stop()).toBe(143);
    const db = await openDatabase(database);
    try {
      const events = await db.query(
        `select event_key, kind, session_id, skill_name, trigger, skill_source, person, prompt_text, prompt_id is not null as has_prompt
         from telemetry_events order by event_key`,
        [],
      );
      expect(events).toEqual([
        row(`seq:${SESSION}:11`, "api_request", SKILL.name, null, null),
        row(`seq:${SESSION}:12`, "tool_result", null, null, null),
        row(`seq:${SESSION}:13`, "api_request", SKILL.name, null, null),
        row(`seq:${SESSION}:5`, "prompt", null, null, null),
        row(`seq:${SESSION}:7`, "activation", SKILL.name, "proactive", "projectSettings"),
        row(`seq:${SESSION}:8`, "tool_result", null, null, null),
        row(`seq:${SESSION}:9`, "api_request", null, null, null),
      ]);
      const prompts = await db.query<{ prompts: string }>("select count(distinct prompt_id)::text as prompts from telemetry_events", []);
      expect(prompts).toEqual([{ prompts: "1" }]);
      // 15 records: managed_settings_resolved, 4 × plugin_loaded, user_prompt, 2 × tool_decision,
      // skill_activated, 2 × tool_result, 3 × api_request, assistant_response; the start-up events,
      // the accepted decisions and the response are ignored.
      expect(await db.query("select day::text, records::int, prompts, ignored::int from telemetry_days", [])).toEqual([
        { day: today, records: 15, prompts: 1, ignored: 8 },
      ]);
    } finally {
      await db.close();
    }

    function row(key: string, kind: string, skill: string | null, trigger: string | null, source: string | null) {
      return {
        event_key: key,
        kind,
        session_id: SESSION,
        skill_name: skill,
        trigger,
        skill_source: source,
        person,
        prompt_text: null,
        has_prompt: true,
      };
    }
  });
});
