import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, seriousViolationsHere, signInAt } from "../helpers/browser";
import { scratchDatabase, type ScratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { claudeCodeLogs, type ClaudeCodeSession } from "../helpers/telemetry";

const KEY = "sg_browser_test_key_people_000012";
const LEAD = { email: "lead@people.test", password: "people-lead-password" };
const HASH = `7e${"1".repeat(62)}`;

/**
 * "My Claude Code key" on the settings page (issue 40), on PostgreSQL: a lead at 1440 px and a
 * viewer at 390 px each make their own telemetry key, shown once in the `env` block Claude Code
 * takes; what the lead's key sends shows on the skill page under the lead's email, a hash sent with
 * the team's key as "unknown person #1"; a new key stops the old one. axe finds nothing serious.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("each member's own Claude Code key in Chromium", () => {
  let scratch: ScratchDatabase;
  let server: RunningServer;
  let browser: Browser;
  const api = (path: string, body?: unknown, key = KEY) =>
    fetch(`${server.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** An empty export: 200 while the key works. */
  const exportWith = (key: string) => api("/api/otlp/v1/logs", {}, key);
  const section = (page: Page) => page.locator('section[aria-labelledby="my-claude-code-key"]');

  /** Makes the signed-in member's key on the settings page; the key and the env block shown with it. */
  async function makeKey(page: Page, button: string): Promise<{ key: string; env: Record<string, string> }> {
    const form = section(page).locator('form[aria-label="Make my Claude Code key"]');
    const shown = form.locator('[data-testid="my-key"]');
    const before = (await shown.count()) > 0 ? await shown.textContent() : null;
    await form.locator("button", { hasText: button }).click();
    await page.waitForFunction((previous) => {
      const now = document.querySelector('[data-testid="my-key"]')?.textContent;
      return now !== undefined && now !== previous;
    }, before);
    expect(await form.locator('p[role="status"]').textContent()).toBe(
      "Key made. Copy it now: it is not shown again. Any key you had before no longer works.",
    );
    const key = (await form.locator('[data-testid="my-key"]').textContent()) ?? "";
    const env = JSON.parse((await form.locator('[data-testid="my-key-env"]').textContent()) ?? "{}").env;
    return { key, env };
  }

  beforeAll(async () => {
    scratch = await scratchDatabase("skillgate_member_keys");
    server = await startServer({
      DATABASE_URL: scratch.url,
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "people",
      SKILLGATE_INIT_API_KEY: KEY,
      SKILLGATE_INIT_USER_EMAIL: LEAD.email,
      SKILLGATE_INIT_USER_PASSWORD: LEAD.password,
    });
    browser = await launchBrowser();
    const created = await api("/api/v1/skills", {
      name: "release-notes",
      description: "Writes release notes. Use when a release is cut.",
      body: "# release-notes\n",
      status: "active",
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await scratch?.drop();
  });

  it("lets a lead at 1440 px make their key, shown once in Claude Code's env block, and counts what it sends as theirs", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, `${server.url}/t/people/settings`, LEAD);
    expect(await section(page).locator('[data-testid="my-key-status"]').textContent()).toBe("You have no key yet.");
    expect(await seriousViolationsHere(page)).toEqual([]);

    const { key, env } = await makeKey(page, "Make my key");
    expect(key).toMatch(/^sg_[A-Za-z0-9_-]{32}$/);
    expect(env).toEqual({
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: `${server.url}/api/otlp`,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${key}`,
      OTEL_LOG_TOOL_DETAILS: "1",
    });
    expect(await section(page).locator('[data-testid="my-key-status"]').textContent()).toBe(
      `Your key is ${key.slice(0, 10)}…. A new one replaces it: the old one stops working at once.`,
    );
    // A lead sees it among the team's keys, whose it is, telemetry only.
    const row = page.locator(`tr[data-key="Claude Code key of ${LEAD.email}"] td`);
    expect(await row.allTextContents()).toEqual([
      `Claude Code key of ${LEAD.email}`,
      `${key.slice(0, 10)}…`,
      "telemetry",
      "just now",
      "Revoke",
    ]);
    expect(await seriousViolationsHere(page)).toEqual([]);

    // Claude Code signed in with an API key sends only a hash: with the lead's key it is the lead.
    for (const [sendKey, sessionId] of [
      [key, "lead-1"],
      [await teamTelemetryKey(page), "shared-1"],
    ] as const) {
      const logs = claudeCodeLogs({ endpoint: `${server.url}/api/otlp`, key: sendKey });
      const session: ClaudeCodeSession = { sessionId, person: { userId: HASH }, sequence: 0 };
      logs.skillActivated(session, { skill: "release-notes", trigger: "claude-proactive", promptId: `${sessionId}-p1` });
      await logs.flush();
      await logs.close();
    }
    await page.goto(`${server.url}/t/people/skills/release-notes`);
    const people = page.locator('[data-testid="production-people"] li');
    // As many days each: in the order of what was stored, the hash's before the email.
    expect(await people.allTextContents()).toEqual(["unknown person #1 · on 1 day", `${LEAD.email} · on 1 day`]);
    expect(await page.locator('[data-testid="production-people"]').textContent()).not.toContain(HASH);
    await context.close();
  });

  it("lets a viewer at 390 px make theirs, and a new one stops the old one", async () => {
    const invited = await api("/api/v1/invitations", { email: "viewer@people.test", role: "viewer" });
    expect(invited.status).toBe(201);
    const { url } = (await invited.json()) as { url: string };
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.fill('input[name="password"]', "a long enough password");
    await page.fill('input[name="confirm"]', "a long enough password");
    await page.click("text=Set password and join");
    await page.waitForURL(`${server.url}/t/people`);
    await page.goto(`${server.url}/t/people/settings`);
    expect(await page.locator('form[aria-label="Create API key"]').count()).toBe(0);
    expect(await section(page).locator("h2").textContent()).toBe("My Claude Code key");
    expect(await seriousViolationsHere(page)).toEqual([]);

    const first = await makeKey(page, "Make my key");
    expect((await exportWith(first.key)).status).toBe(200);
    const second = await makeKey(page, "Make a new key");
    expect(second.key).not.toBe(first.key);
    expect(second.env.OTEL_EXPORTER_OTLP_HEADERS).toBe(`Authorization=Bearer ${second.key}`);
    expect((await exportWith(first.key)).status).toBe(401);
    expect((await exportWith(second.key)).status).toBe(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolationsHere(page)).toEqual([]);
    await context.close();
  });

  /** A team key with the access "telemetry only", made by the lead on the same page. */
  async function teamTelemetryKey(page: Page): Promise<string> {
    const form = page.locator('form[aria-label="Create API key"]');
    await form.locator('input[name="name"]').fill("laptops");
    await form.locator('input[name="access"][value="telemetry"]').check();
    await form.locator("button", { hasText: "Create key" }).click();
    return (await form.locator('[data-testid="new-key"]').textContent()) ?? "";
  }
});
