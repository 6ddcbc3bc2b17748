import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseConfig } from "@/db/client";
import { createApiKey } from "@/lib/auth/api-keys";
import { applyInitConfig } from "@/lib/teams/init";
import { claudeCodeBinary, readmeSettingsEnv, runClaudeCode, type ClaudeCodeResult } from "../helpers/claude-code";
import { startFakeAnthropic, type FakeAnthropic } from "../helpers/fake-anthropic";
import { scratchDatabase, type ScratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

const ADMIN_KEY = "sg_claude_code_test_admin_key_0040";
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
      const [team] = await applyInitConfig(seeding.db, { teams: ["claude-code"], apiKeys: [ADMIN_KEY], userEmails: [], userPasswords: [] });
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
    });

    // ── Production figures (issue 40) go here, while the server runs: this session's prompt had the
    // skill loaded for two of its three model calls (`api_request` with `skill.name`), made one tool
    // call besides the skill's own (Bash `exit 3`, `tool_result` success "false", error "Shell command
    // failed"), and cost 3 × $0.00726 (tests/fixtures/claude-code-events.json, session 1).
    // The lead adds: the usage entry's `production` and the skill page's "In production" figures.
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
        row(`seq:${SESSION}:5`, "prompt", null, null, null),
        row(`seq:${SESSION}:7`, "activation", SKILL.name, "proactive", "projectSettings"),
      ]);
      const prompts = await db.query<{ prompts: string }>("select count(distinct prompt_id)::text as prompts from telemetry_events", []);
      expect(prompts).toEqual([{ prompts: "1" }]);
      // 15 records: managed_settings_resolved, 4 × plugin_loaded, user_prompt, 2 × tool_decision,
      // skill_activated, 2 × tool_result, 3 × api_request, assistant_response; all but two ignored.
      expect(await db.query("select day::text, records::int, prompts, ignored::int from telemetry_days", [])).toEqual([
        { day: today, records: 15, prompts: 1, ignored: 13 },
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
