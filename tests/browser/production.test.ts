import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { claudeCodeLogs, type ClaudeCodeSession } from "../helpers/telemetry";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const DAY = 24 * 60 * 60 * 1000;
const api = async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { authorization: `Bearer ${init.key ?? LAB_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** The cells of a table row, as a person reads them. */
const cells = (page: Page, row: string) => page.locator(row).locator("td").allTextContents();
/** Where the overview's Proactive and Typed columns are: after Skill, Source, Version, Status, Lint, Views 7d, Views 30d, Daily views. */
const PROACTIVE = 8;

/**
 * Production telemetry on the dashboard (issue 26): Claude Code's events, sent by the
 * OpenTelemetry exporters with a telemetry key a lead made on the settings page, show on the
 * overview (proactive and typed counts, the typed-only flag), on the skill page (the chart by
 * trigger with the versions marked, the rate per version, the people) and on the activation page
 * (beside recall, and as a prompt set built from the prompts people wrote).
 */
describe("production telemetry on the dashboard in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let telemetryKey = "";
  const ada: ClaudeCodeSession = { sessionId: "prod-ada", person: { email: "ada@lab.test", accountUuid: "a-1" }, sequence: 0 };
  const bo: ClaudeCodeSession = { sessionId: "prod-bo", person: { email: "bo@lab.test", accountUuid: "b-2" }, sequence: 0 };
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    for (const [name, description] of [
      ["prod-chosen", "Rolls a bad release back. Use when a deploy must be undone."],
      ["prod-typed", "Feature flag audit."],
    ]) {
      const created = await api("/api/v1/skills", { body: { name, description, body: `# ${name}\n`, status: "active" } });
      expect(created.status).toBe(201);
    }
    const v2 = await api("/api/v1/skills/prod-chosen", {
      method: "PUT",
      body: { description: "Rolls a bad release back. Use when a deploy must be undone or a canary fails.", expectedVersion: 1 },
    });
    expect(await v2.json()).toEqual({ name: "prod-chosen", version: 2 });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/t/lab/settings`);
  });
  afterAll(async () => browser?.close());

  /** Sends Claude Code's events with the exporter, and waits for the server's answer. */
  async function send(events: (logs: ReturnType<typeof claudeCodeLogs>) => void): Promise<void> {
    const logs = claudeCodeLogs({ endpoint: `${baseUrl}/api/otlp`, key: telemetryKey });
    events(logs);
    await logs.flush();
    await logs.close();
  }

  it("makes a telemetry-only key on the settings page: it sends telemetry and reads nothing", async () => {
    const form = page.locator('form[aria-label="Create API key"]');
    await form.locator('input[name="name"]').fill("claude-code-prod");
    await form.locator('input[name="access"][value="telemetry"]').check();
    await form.locator("button", { hasText: "Create key" }).click();
    telemetryKey = (await page.locator('[data-testid="new-key"]').textContent()) ?? "";
    expect(telemetryKey).toMatch(/^sg_/);
    expect(await page.locator('tr[data-key="claude-code-prod"] td').nth(2).textContent()).toBe("telemetry");
    expect((await api("/api/v1/listing", { key: telemetryKey })).status).toBe(403);
  });

  it("counts the exporter's records per skill and trigger, and flags the skill people only type", async () => {
    const yesterday = new Date(Date.now() - DAY);
    // Prompt texts are sent, but not kept: the team's "store prompts" is off.
    await send((logs) => {
      logs.userPrompt(ada, { promptId: "ada-1", prompt: "Roll back the payments deploy", at: yesterday });
      logs.skillActivated(ada, { skill: "prod-chosen", trigger: "claude-proactive", promptId: "ada-1", at: yesterday });
      logs.userPrompt(ada, { promptId: "ada-2", prompt: "The canary is failing, undo the release" });
      logs.skillActivated(ada, { skill: "prod-chosen", trigger: "claude-proactive", promptId: "ada-2" });
      logs.other(ada, "api_request", { model: "claude-sonnet-4", cost_usd: 0.01 });
      logs.userPrompt(bo, { promptId: "bo-1", prompt: "/prod-typed check the flags" });
      logs.skillActivated(bo, { skill: "prod-typed", trigger: "user-slash", promptId: "bo-1" });
      logs.userPrompt(bo, { promptId: "bo-2", prompt: "/prod-chosen" });
      logs.skillActivated(bo, { skill: "prod-chosen", trigger: "user-slash", promptId: "bo-2" });
      logs.skillActivated(bo, { skill: "prod-chosen", trigger: "nested-skill", promptId: "bo-2" });
    });
    const usage = await (await api("/api/v1/usage")).json();
    const of = (name: string) => usage.skills.find((skill: { name: string }) => skill.name === name);
    expect([of("prod-chosen").activations, of("prod-chosen").people, of("prod-chosen").typedOnly]).toEqual([
      { proactive: 2, slash: 1, nested: 1 },
      2,
      false,
    ]);
    expect([of("prod-typed").activations, of("prod-typed").typedOnly]).toEqual([{ proactive: 0, slash: 1, nested: 0 }, true]);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl}/t/lab?q=prod-`);
      expect((await cells(page, 'tr[data-skill="prod-chosen"]')).slice(PROACTIVE, PROACTIVE + 2), `${width}px`).toEqual(["2", "1"]);
      expect((await cells(page, 'tr[data-skill="prod-typed"]')).slice(PROACTIVE, PROACTIVE + 2), `${width}px`).toEqual(["0", "1"]);
      expect(await page.locator('tr[data-skill="prod-typed"] [data-flag="typed-only"]').textContent()).toBe(
        "only typed — description does not trigger improve the description",
      );
      expect(await page.locator('tr[data-skill="prod-typed"] [data-flag="typed-only"] a').getAttribute("href")).toBe(
        "/t/lab/skills/prod-typed#in-production",
      );
      expect(await page.locator('tr[data-skill="prod-chosen"] [data-flag="typed-only"]').count()).toBe(0);
      expect(await page.textContent('[data-stat="Only typed"]')).toBe("1");
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // The filter shows the typed-only skills and nothing else.
    await page.selectOption('select[aria-label="Show"]', "typed");
    await page.waitForURL(/show=typed/);
    expect(await page.locator("tr[data-skill]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-skill")))).toEqual([
      "prod-typed",
    ]);
  });

  it("refuses to build a prompt set while no prompt text is kept, and says how to keep them", async () => {
    await page.goto(`${baseUrl}/t/lab/activation`);
    const form = page.locator('form[aria-label="Build a prompt set from production"]');
    await form.locator('input[name="name"]').fill("lab-production");
    await form.locator("button", { hasText: "Build prompt set" }).click();
    expect(await form.locator('p[role="alert"]').textContent()).toBe(
      'no stored prompts in the last 30 day(s): turn on "store prompts" in the team\'s settings and have agents send prompt texts (Claude Code: OTEL_LOG_USER_PROMPTS=1)',
    );
    expect((await api("/api/v1/evals/prompt-sets/lab-production")).status).toBe(404);
  });

  it("keeps prompt texts once a lead turns it on in Settings → Telemetry, and builds a prompt set from them", async () => {
    await page.goto(`${baseUrl}/t/lab/settings`);
    const settings = page.locator('form[aria-label="Telemetry settings"]');
    expect(await settings.locator('input[name="storePrompts"]').isChecked()).toBe(false);
    expect(await settings.locator('input[name="telemetryDays"]').inputValue()).toBe("30");
    await settings.locator('input[name="storePrompts"]').check();
    await settings.locator('input[name="telemetryDays"]').fill("45");
    await settings.locator("button", { hasText: "Save" }).click();
    expect(await settings.locator('p[role="status"]').textContent()).toBe(
      "Telemetry settings saved: prompt texts are kept; raw events for 45 days.",
    );
    expect(await (await api("/api/v1/settings")).json()).toMatchObject({ storePrompts: true, telemetryDays: 45 });

    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await send((logs) => {
      logs.userPrompt(ada, { promptId: "ada-3", prompt: "Undo the search release, it doubled latency", at: minutesAgo(3) });
      logs.skillActivated(ada, { skill: "prod-chosen", trigger: "claude-proactive", promptId: "ada-3", at: minutesAgo(3) });
      logs.userPrompt(bo, { promptId: "bo-3", prompt: "What is the capital of France?", at: minutesAgo(2) });
      logs.userPrompt(bo, { promptId: "bo-4", prompt: "/prod-typed audit the flags", at: minutesAgo(1) });
      logs.skillActivated(bo, { skill: "prod-typed", trigger: "user-slash", promptId: "bo-4", at: minutesAgo(1) });
    });

    await page.goto(`${baseUrl}/t/lab/activation`);
    const form = page.locator('form[aria-label="Build a prompt set from production"]');
    await form.locator('input[name="name"]').fill("lab-production");
    await form.locator("button", { hasText: "Build prompt set" }).click();
    expect(await form.locator('p[role="status"]').textContent()).toBe(
      'Saved prompt set "lab-production" with 3 case(s) from the last 30 day(s): 2 expecting the skills activated for them, 1 expecting none.',
    );
    expect((await (await api("/api/v1/evals/prompt-sets/lab-production")).json()).cases).toEqual([
      { id: "P1", prompt: "audit the flags", expected: ["prod-typed"], expectNone: false },
      { id: "G1", prompt: "What is the capital of France?", expected: [], expectNone: true },
      { id: "P2", prompt: "Undo the search release, it doubled latency", expected: ["prod-chosen"], expectNone: false },
    ]);
    // Production beside recall: 3 proactive of 7 prompts in 30 days.
    expect(await cells(page, 'tr[data-production="prod-chosen"]')).toEqual(["prod-chosen", "3", "1", "1", "42.9 (15.8–75.0)", "—"]);
    expect(await cells(page, 'tr[data-production="prod-typed"]')).toEqual(["prod-typedonly typed", "0", "2", "0", "0.0 (0.0–35.4)", "—"]);
  });

  it("charts the skill in production by trigger with its versions marked, the rate per version, and the people, at 1280 and 390 px", async () => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl}/t/lab/skills/prod-chosen`);
      const chart = page.locator('[data-testid="production-chart"]');
      await chart.locator(".version-marker").first().waitFor();
      // Both versions were made today: one line, its label naming both.
      expect(await chart.locator(".version-marker").allTextContents(), `${width}px`).toEqual(["v1, v2"]);
      expect(await chart.locator(".recharts-reference-line-line").count()).toBe(1);
      expect(await chart.locator(".recharts-bar-rectangle").count()).toBeGreaterThan(0);
      expect(await page.textContent('[data-testid="production-totals"]')).toBe("3 chosen by the model · 1 typed · 1 called by a skill");
      expect(await cells(page, '[data-testid="production-versions"] tr[data-version="1"]')).toEqual([
        "v1",
        "—",
        "0",
        "0",
        "replaced the same day",
      ]);
      // v2 went live today: 2 of today's 6 prompts chose it.
      expect(await cells(page, '[data-testid="production-versions"] tr[data-version="2"]')).toEqual([
        "v2",
        "33.3 (9.7–70.0)",
        "2",
        "6",
        `${today} – ${today}`,
      ]);
      // A lead sees who: ada on two days, bo on one.
      expect(await page.locator('[data-testid="production-people"] li').allTextContents()).toEqual([
        "ada@lab.test · on 2 days",
        "bo@lab.test · on 1 day",
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}px`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("names the people to leads only: a viewer sees how many, and no build form", async () => {
    const invited = await api("/api/v1/invitations", { body: { email: "prod-viewer@lab.test", role: "viewer" } });
    expect(invited.status).toBe(201);
    const { url } = await invited.json();
    const guest = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const viewer = await guest.newPage();
      await viewer.goto(url);
      await viewer.fill('input[name="password"]', "a long enough password");
      await viewer.fill('input[name="confirm"]', "a long enough password");
      await viewer.click("text=Set password and join");
      await viewer.waitForURL(`${baseUrl}/t/lab`);
      await viewer.goto(`${baseUrl}/t/lab/skills/prod-chosen`);
      expect(await viewer.textContent('[data-testid="production-people"]')).toBe("2 people activated it in the last 90 days.");
      expect(await viewer.content()).not.toContain("ada@lab.test");
      await viewer.goto(`${baseUrl}/t/lab/activation`);
      expect(await viewer.locator('form[aria-label="Build a prompt set from production"]').count()).toBe(0);
      expect(await viewer.locator('tr[data-production="prod-chosen"]').count()).toBe(1);
    } finally {
      await guest.close();
    }
  });

  it("shows the demo's month of production: the skill people only type, unnamed and outside-registry activations, and a description that made the model choose changelog-writer", async () => {
    await page.goto(`${baseUrl}/t/demo`);
    expect(
      await page.locator("tr:has([data-flag='typed-only'])").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-skill"))),
    ).toEqual(["api-error-envelope"]);
    expect((await cells(page, 'tr[data-skill="api-error-envelope"]')).slice(PROACTIVE, PROACTIVE + 2)).toEqual(["0", "9"]);
    expect((await cells(page, 'tr[data-skill="changelog-writer"]')).slice(PROACTIVE, PROACTIVE + 2)).toEqual(["7", "11"]);
    expect(await page.textContent('[data-testid="unnamed-activations"]')).toBe(
      "4 activations of unnamed custom skills: set OTEL_LOG_TOOL_DETAILS=1 in Claude Code's settings to see their names.",
    );
    expect(await page.locator("[data-outside]").allTextContents()).toEqual(["frontend-design · 5"]);

    await page.goto(`${baseUrl}/t/demo/skills/changelog-writer`);
    const chart = page.locator('[data-testid="production-chart"]');
    await chart.locator(".version-marker").first().waitFor();
    expect(await chart.locator(".version-marker").allTextContents()).toEqual(["v1", "v2"]);
    expect(await chart.locator(".recharts-reference-line-line").count()).toBe(2);
    const v1 = await cells(page, '[data-testid="production-versions"] tr[data-version="1"]');
    const v2 = await cells(page, '[data-testid="production-versions"] tr[data-version="2"]');
    // Typed by hand until the description was rewritten; chosen by the model since.
    expect([v1[2], v2[2]]).toEqual(["1", "6"]);
    expect(parseFloat(v2[1]!)).toBeGreaterThan(10 * parseFloat(v1[1]!));
  });

  it("finds no serious or critical axe violation on these pages, at 1280 and 390 px", async () => {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/t/lab?q=prod-", "/t/lab/skills/prod-chosen", "/t/lab/activation", "/t/lab/settings", "/t/demo"]) {
        found.push(...(await seriousViolations(page, `${baseUrl}${path}`)).map((line) => `${width}px ${line}`));
      }
    }
    expect(found).toEqual([]);
  });
});
