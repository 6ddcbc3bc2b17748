import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolationsHere } from "../helpers/browser";
import { claudeCodeLogs, type ClaudeCodeSession, type LogSender } from "../helpers/telemetry";
import { EVIDENCE_KEY } from "./server";

const baseUrl = inject("baseUrl");
const WIDTHS = [1440, 390];
const api = async (path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { authorization: `Bearer ${EVIDENCE_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** The cells of a table row, as a person reads them. */
const cells = (page: Page, row: string) => page.locator(row).locator("td").allTextContents();
const skillRows = (page: Page) => page.locator("tr[data-skill]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-skill")));
const fitsWidth = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}px`).toBeLessThanOrEqual(width);

/**
 * Is a skill helping? (issue 40) Claude Code's tool results, API requests and a person's rejections,
 * sent by the OpenTelemetry exporters, answer on the skill page per version — failure rates with
 * their intervals beside the no-skill baseline, "did v2 make things worse than v1?" — and on the
 * overview as the "loaded, then failing" and "costly" flags, each opening the table filtered to
 * them. A lead mutes a failing tool from the page; a member who is not a lead sees no button.
 */
describe("production evidence on the dashboard in Chromium", () => {
  let browser: Browser;
  let page: Page;
  const notes: ClaudeCodeSession = { sessionId: "ev-notes-v1", person: { email: "ada@evidence.test", accountUuid: "e-1" }, sequence: 0 };
  const plain: ClaudeCodeSession = { sessionId: "ev-plain", person: { email: "bo@evidence.test", accountUuid: "e-2" }, sequence: 0 };
  const dear: ClaudeCodeSession = { sessionId: "ev-costly", person: { email: "bo@evidence.test", accountUuid: "e-2" }, sequence: 0 };
  const later: ClaudeCodeSession = { sessionId: "ev-notes-v2", person: { email: "ada@evidence.test", accountUuid: "e-1" }, sequence: 0 };

  beforeAll(async () => {
    for (const name of ["ev-notes", "ev-costly"]) {
      const created = await api("/api/v1/skills", {
        body: { name, description: `Writes ${name}. Use when shipping.`, body: `# ${name}\n`, status: "active" },
      });
      expect(created.status).toBe(201);
    }
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(`${baseUrl}/t/evidence`);
  });
  afterAll(async () => browser?.close());

  /** Sends Claude Code's events with the exporter, and waits for the server's answer. */
  async function send(events: (logs: LogSender) => void): Promise<void> {
    const logs = claudeCodeLogs({ endpoint: `${baseUrl}/api/otlp`, key: EVIDENCE_KEY });
    events(logs);
    await logs.flush();
    await logs.close();
  }

  /**
   * One prompt as Claude Code reports it, a second apart: the prompt, the skill's activation, `calls`
   * tool results of which the first `fails` fail (Bash, "Exit code 1"), then the model call naming
   * the skill: 1,200 tokens. 2 + `calls` seconds from first event to last.
   */
  function prompt(
    logs: LogSender,
    session: ClaudeCodeSession,
    id: string,
    { skill, calls, fails, costUsd, at }: { skill?: string; calls: number; fails: number; costUsd: number; at: number },
  ) {
    const second = (n: number) => new Date(at + n * 1000);
    logs.userPrompt(session, { promptId: id, at: second(0) });
    if (skill) logs.skillActivated(session, { skill, trigger: "claude-proactive", promptId: id, at: second(1) });
    for (let i = 0; i < calls; i++) {
      const failed = i < fails;
      logs.toolResult(session, {
        promptId: id,
        tool: failed ? "Bash" : "Read",
        success: !failed,
        ...(failed ? { error: "Exit code 1" } : {}),
        at: second(2 + i),
      });
    }
    logs.apiRequest(session, {
      promptId: id,
      costUsd,
      inputTokens: 1000,
      outputTokens: 200,
      ...(skill ? { skill } : {}),
      at: second(2 + calls),
    });
  }

  /** v2's prompts, timed from now: after v2 was made, so it is the version they loaded. */
  const v2Prompts = (logs: LogSender, from: number, to: number) => {
    for (let i = from; i < to; i++)
      prompt(logs, later, `v2-${i}`, { skill: "ev-notes", calls: 4, fails: 3, costUsd: 0.03, at: Date.now() + i * 60_000 });
  };

  it("shows a version's failure rate with its interval, calls, cost, tokens, time and rejections beside no skill, and says n too small below 30 calls", async () => {
    const hourAgo = Date.now() - 60 * 60_000;
    await send((logs) => {
      // v1: 10 prompts, 40 calls, 2 failing, $0.02 each; a person rejected one Edit.
      for (let i = 0; i < 10; i++)
        prompt(logs, notes, `v1-${i}`, { skill: "ev-notes", calls: 4, fails: i < 2 ? 1 : 0, costUsd: 0.02, at: hourAgo + i * 60_000 });
      logs.toolDecision(notes, { promptId: "v1-0", tool: "Edit", decision: "reject", source: "user_reject", at: new Date(hourAgo + 7000) });
      // No skill: 10 prompts, 40 calls, 2 failing, $0.02 each.
      for (let i = 0; i < 10; i++)
        prompt(logs, plain, `plain-${i}`, { calls: 4, fails: i < 2 ? 1 : 0, costUsd: 0.02, at: hourAgo + i * 60_000 });
      // ev-costly: 10 prompts, 40 calls, 1 failing, $0.09 each: 4.5 times the prompts with no skill.
      for (let i = 0; i < 10; i++)
        prompt(logs, dear, `costly-${i}`, { skill: "ev-costly", calls: 4, fails: i < 1 ? 1 : 0, costUsd: 0.09, at: hourAgo + i * 60_000 });
    });
    const v2 = await api("/api/v1/skills/ev-notes", {
      method: "PUT",
      body: { description: "Writes notes, take 2. Use when shipping.", expectedVersion: 1 },
    });
    expect(await v2.json()).toEqual({ name: "ev-notes", version: 2 });
    await send((logs) => v2Prompts(logs, 0, 2));

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl}/t/evidence/skills/ev-notes`);
      const figures = page.locator('[data-testid="production-figures"]');
      expect(await cells(page, '[data-figures="1"]'), `${width}px`).toEqual([
        "v1",
        "5.0% (1.4–16.5%)",
        "40",
        "no clear difference",
        "10",
        "$0.020",
        "1,200",
        "6 s",
        "1",
      ]);
      expect(await cells(page, '[data-figures="2"]')).toEqual([
        "v2",
        "75.0% (40.9–92.9%)",
        "8",
        "n too small",
        "2",
        "$0.030",
        "1,200",
        "6 s",
        "0",
      ]);
      expect(await cells(page, '[data-figures="none"]')).toEqual([
        "No skill loaded",
        "5.0% (1.4–16.5%)",
        "40",
        "baseline",
        "10",
        "$0.020",
        "1,200",
        "6 s",
        "0",
      ]);
      // Each rate is drawn as an interval bar with its dot, on one scale.
      expect(await figures.locator("[data-interval-bar]").count()).toBe(3);
      expect(await page.locator('[data-comparison="2"]').textContent()).toBe(
        "Did v2 make things worse than v1? n too small: v2 has 8 tool calls and v1 has 40 tool calls; comparing their failure rates needs at least 30 with each.",
      );
      await fitsWidth(page, width);
    }
  });

  it("answers yes once v2 has the calls: its interval lies above v1's", async () => {
    await send((logs) => v2Prompts(logs, 2, 10));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl}/t/evidence/skills/ev-notes`);
      expect(await cells(page, '[data-figures="2"]'), `${width}px`).toEqual([
        "v2",
        "75.0% (59.8–85.8%)",
        "40",
        "higher",
        "10",
        "$0.030",
        "1,200",
        "6 s",
        "0",
      ]);
      expect(await page.locator('[data-comparison="2"]').textContent()).toBe(
        "Did v2 make things worse than v1? Yes: tools failed more often with v2, 75.0% (59.8–85.8%) of 40 calls, than with v1, 5.0% (1.4–16.5%) of 40 calls; the intervals do not overlap.",
      );
      // The failing tools of each version, newest first; the team keeps no prompt texts, so no error texts.
      expect(
        await page.locator("[data-failing-version]").evaluateAll((all) => all.map((v) => v.getAttribute("data-failing-version"))),
      ).toEqual(["2", "1"]);
      expect(await page.locator('[data-failing-version="2"] [data-failing-tool="Bash"] > span').allTextContents()).toEqual([
        "Bash",
        "failed 30 times",
        "Mute",
      ]);
      expect(await page.locator('[data-failing-version="1"] [data-failing-tool="Bash"] > span').first().textContent()).toBe("Bash");
      expect(await page.textContent('[data-testid="errors-not-kept"]')).toBe(
        "No error texts: a tool's error can quote what it worked on, so it is kept only while the team keeps prompt texts (Settings → Telemetry, “store prompts”).",
      );
      await fitsWidth(page, width);
    }
  });

  it("flags ev-notes loaded, then failing and ev-costly costly on the overview, each linking to the table filtered to it", async () => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${baseUrl}/t/evidence`);
      expect(
        [await page.textContent('[data-stat="Loaded, then failing"]'), await page.textContent('[data-stat="Costly"]')],
        `${width}px`,
      ).toEqual(["1", "1"]);
      expect(await page.locator('tr[data-skill="ev-notes"] [data-flag="loadedThenFailing"]').textContent()).toBe(
        "loaded, then failing see the failing tools",
      );
      expect(await page.locator('tr[data-skill="ev-notes"] [data-flag="loadedThenFailing"] a').getAttribute("href")).toBe(
        "/t/evidence/skills/ev-notes#production-figures",
      );
      expect(await page.locator('tr[data-skill="ev-costly"] [data-flag="costly"]').textContent()).toBe(
        "costly see the cost per activation",
      );
      expect(await page.locator('tr[data-skill="ev-notes"] [data-flag="costly"]').count()).toBe(0);
      expect(await page.locator('tr[data-skill="ev-costly"] [data-flag="loadedThenFailing"]').count()).toBe(0);
      for (const [label, show, rows] of [
        ["Loaded, then failing", "loadedThenFailing", ["ev-notes"]],
        ["Costly", "costly", ["ev-costly"]],
      ] as const) {
        await page.goto(`${baseUrl}/t/evidence`);
        const link = page.locator(`[data-stat-link="${label}"]`);
        expect(await link.getAttribute("href")).toBe(`/t/evidence?show=${show}#skill-health`);
        await link.click();
        await page.waitForURL(`${baseUrl}/t/evidence?show=${show}#skill-health`);
        await page.locator(`tr[data-skill="${rows[0]}"]`).waitFor();
        expect(await skillRows(page), `${width}px ${show}`).toEqual(rows);
        expect(await page.textContent('[data-testid="row-count"]')).toBe("1 of 11 skills");
        expect(await page.locator('select[aria-label="Show"]').inputValue()).toBe(show);
        await fitsWidth(page, width);
      }
    }
    // The table's own filter offers the same two.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/t/evidence`);
    await page.selectOption('select[aria-label="Show"]', "costly");
    await page.waitForURL(/show=costly/);
    expect(await skillRows(page)).toEqual(["ev-costly"]);
  });

  it("shows the failing prompts as observations from production telemetry beside a recorded run", async () => {
    const recorded = await api("/api/v1/observations", {
      body: { observations: [{ skill: "ev-notes", task: "write the 1.2 notes", category: "notes", outcome: "success" }] },
    });
    expect(recorded.status).toBe(201);
    await page.goto(`${baseUrl}/t/evidence/skills/ev-notes`);
    const sources = await page
      .locator("[data-observation-source]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-observation-source")));
    // Two of v1's prompts and all ten of v2's had a failing tool: one observation each.
    expect([sources.filter((s) => s === "telemetry").length, sources.filter((s) => s === "api").length]).toEqual([12, 1]);
    expect(await page.locator('[data-observation-source="telemetry"] [data-source="telemetry"]').first().textContent()).toBe(
      "production telemetry",
    );
    expect(await page.locator('[data-observation-source="api"] [data-source="api"]').textContent()).toBe("recorded");
    await page.selectOption('select[name="source"]', "telemetry");
    await page.click('form[aria-label="Filter observations"] button');
    await page.waitForURL(/source=telemetry/);
    expect(await page.locator('[data-observation-source="telemetry"]').count()).toBe(12);
    expect(await page.locator('[data-observation-source="api"]').count()).toBe(0);
  });

  it("lets a lead mute and unmute a failing tool; a member who is not a lead sees the muted list and no button", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/t/evidence/skills/ev-notes`);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click('[data-failing-version="2"] button[aria-label="Mute Bash"]');
    await page.locator('[data-muted-tool="Bash"]').waitFor();
    expect(await page.locator('#production-figures p[role="status"]').textContent()).toBe(
      "Muted Bash: its failures while ev-notes is loaded make no observation of ev-notes. The figures still count them.",
    );
    expect(await (await api("/api/v1/skills/ev-notes/muted-tools")).json()).toEqual({ name: "ev-notes", mutedTools: ["Bash"] });
    // Muted in every version's list; the figures are unchanged.
    expect(await page.locator('[data-failing-tool="Bash"] button').count()).toBe(0);
    expect(await page.locator('[data-failing-tool="Bash"]').allTextContents()).toEqual([
      "Bashfailed 30 timesmuted",
      "Bashfailed 2 timesmuted",
    ]);
    expect((await cells(page, '[data-figures="2"]'))[1]).toBe("75.0% (59.8–85.8%)");
    expect(await seriousViolationsHere(page)).toEqual([]);

    const invited = await api("/api/v1/invitations", { body: { email: "ev-editor@evidence.test", role: "editor" } });
    expect(invited.status).toBe(201);
    const { url } = await invited.json();
    const guest = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const editor = await guest.newPage();
      await editor.goto(url);
      await editor.fill('input[name="password"]', "a long enough password");
      await editor.fill('input[name="confirm"]', "a long enough password");
      await editor.click("text=Set password and join");
      await editor.waitForURL(`${baseUrl}/t/evidence`);
      await editor.goto(`${baseUrl}/t/evidence/skills/ev-notes`);
      expect(await editor.locator('[data-muted-tool="Bash"]').textContent()).toBe("Bash");
      expect(await editor.locator("#production-figures button").count()).toBe(0);
      expect(await editor.locator('[data-figures="2"]').count()).toBe(1);
    } finally {
      await guest.close();
    }

    page.once("dialog", (dialog) => void dialog.accept());
    await page.click('button[aria-label="Unmute Bash"]');
    await page.locator('[data-testid="muted-tools"]').waitFor({ state: "detached" });
    expect(await page.locator('#production-figures p[role="status"]').textContent()).toBe(
      "Unmuted Bash: its failures while ev-notes is loaded make observations of ev-notes again.",
    );
    expect(await (await api("/api/v1/skills/ev-notes/muted-tools")).json()).toEqual({ name: "ev-notes", mutedTools: [] });
    expect(await page.locator('[data-failing-tool="Bash"] button[aria-label="Mute Bash"]').count()).toBe(2);
  });

  it("shows the demo's month: changelog-writer's v2 worse than v1 with the git errors, and its two flags on the overview", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/t/demo?show=loadedThenFailing`);
    expect(await skillRows(page)).toEqual(["changelog-writer", "db-migration-review"]);
    await page.goto(`${baseUrl}/t/demo?show=costly`);
    expect(await skillRows(page)).toEqual(["systematic-debugging"]);

    await page.goto(`${baseUrl}/t/demo/skills/changelog-writer`);
    expect(await page.locator('[data-comparison="2"]').textContent()).toBe(
      "Did v2 make things worse than v1? Yes: tools failed more often with v2, 33.3% (20.2–49.7%) of 36 calls, than with v1, 4.2% (1.2–14.0%) of 48 calls; the intervals do not overlap.",
    );
    expect((await cells(page, '[data-figures="none"]')).slice(0, 5)).toEqual([
      "No skill loaded",
      "2.8% (2.1–3.7%)",
      "1,620",
      "baseline",
      "540",
    ]);
    expect(await page.locator('[data-failing-version="2"] [data-failing-tool="Bash"] code').textContent()).toBe(
      "fatal: ambiguous argument 'v3.0.0..HEAD': unknown revision or path not in the working tree.",
    );
    expect(await page.locator('[data-testid="errors-not-kept"]').count()).toBe(0);
  });

  it("finds no serious or critical axe violation on these pages, at 1440 and 390 px", async () => {
    const found: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [
        "/t/evidence",
        "/t/evidence?show=loadedThenFailing",
        "/t/evidence/skills/ev-notes",
        "/t/demo/skills/changelog-writer",
      ]) {
        await page.goto(`${baseUrl}${path}`);
        found.push(...(await seriousViolationsHere(page)).map((line) => `${width}px ${line}`));
      }
    }
    expect(found).toEqual([]);
  });
});
