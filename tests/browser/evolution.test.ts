import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { stubControl } from "../helpers/openai-stub";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const judge = stubControl(inject("judgeUrl"));
const api = async (path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

describe("evaluations in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await api("/api/v1/skills", {
      name: "staged-release",
      description: "Rolls a change out in stages. Use when shipping to users.",
      body: "# Rollout\n\n1. Ship it.\n",
      status: "active",
    });
    await api("/api/v1/observations", {
      observations: [
        {
          skill: "staged-release",
          task: "better: roll out the new checkout",
          category: "release",
          outcome: "failure",
          errorType: "NoStages",
        },
        { skill: "staged-release", task: "better: roll out search v2", category: "release", outcome: "partial" },
        { skill: "staged-release", task: "same: roll out a copy change", category: "release", outcome: "success" },
      ],
    });
    await api("/api/v1/skills/staged-release/amendments", {
      body: "# Rollout\n\n1. Ship to 5%.\n2. Watch errors for 30 minutes.\n3. Ship to everyone.\n",
      rationale: "two rollouts went to everyone at once",
    });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/lab/skills/staged-release`);
  });
  afterAll(async () => browser?.close());

  it("starts an evaluation from the skill page and follows its progress to the verdict", async () => {
    expect(await page.locator('[data-testid="observations"] tbody tr').count()).toBe(3);
    // The judge holds its answers until the page has shown the evaluation in flight, across a reload.
    await judge.hold();
    try {
      await page.locator('tr[data-amendment] button:has-text("Evaluate")').click();
      await page.waitForURL(/\/t\/lab\/history\/evaluations\/\d+$/);
      // Amendment first, its evaluation in brackets: the two numberings are never read as one.
      const evaluationId = page.url().split("/").pop();
      expect(await page.textContent("h1")).toMatch(new RegExp(`^Amendment #\\d+ \\(evaluation #${evaluationId}\\) to staged-release$`));
      expect(await page.textContent('[data-testid="judged-note"]')).toContain("This is a judged comparison, not a re-execution");
      expect(await page.textContent('[data-testid="progress"]')).toMatch(/^Judging case [0-2] of 3…/);
      await page.reload();
      expect(await page.textContent('[data-testid="progress"]')).toMatch(/^Judging case [0-2] of 3…/);
    } finally {
      await judge.release();
    }
    await page.locator('[data-stat="Verdict"]:has-text("improved")').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="progress"]').count()).toBe(0);
  });

  it("shows each case's scores as stored, to two decimals", async () => {
    const id = Number(page.url().split("/").pop());
    const report = await api(`/api/v1/evaluations/${id}`);
    expect(report).toMatchObject({
      verdict: "improved",
      improved: 2,
      unchanged: 1,
      promotedVersion: 2,
      modelId: "openai-compatible:stub-judge",
    });
    const rows = page.locator('[data-testid="cases"] tbody tr');
    expect(await rows.count()).toBe(report.cases.length);
    for (const [i, c] of report.cases.entries()) {
      const cells = rows.nth(i).locator("td");
      expect(await cells.nth(0).textContent()).toBe(c.task);
      expect(await cells.nth(1).textContent()).toBe(c.outcome);
      for (const [j, dimension] of ["correctness", "completeness", "adherence"].entries()) {
        expect(await cells.nth(2 + j).textContent()).toBe(`${c.original[dimension].toFixed(2)} → ${c.amended[dimension].toFixed(2)}`);
      }
      expect(await cells.nth(6).textContent()).toBe(c.change);
      expect(await cells.nth(7).textContent()).toBe(c.rationale);
    }
    expect(await page.textContent('[data-stat="Promoted"]')).toBe("v2");
    // The change itself is on the page, with who proposed it, when and why.
    const caption = (await page.textContent('[data-testid="amendment-caption"]'))!;
    expect(caption).toMatch(
      new RegExp(
        `^Amendment #${report.amendmentId} against v1, written by an agent: key start-up key, (just now|\\d+ min ago)\\. Why: “two rollouts went to everyone at once”$`,
      ),
    );
    const change = page.locator('section[aria-labelledby="amendment-change"] [data-testid="side-by-side"]');
    expect(await change.locator("th").allTextContents()).toEqual(["", "v1", "", `amendment #${report.amendmentId}`]);
    expect(await change.locator('tr[data-kind="changed"] td').allTextContents()).toEqual(["7", "1. Ship it.", "7", "1. Ship to 5%."]);
    // An improved, promoted amendment offers no override.
    expect(await page.locator('section[aria-labelledby="override"]').count()).toBe(0);
    // "v2" opens the version's diff, which says which amendment made it.
    await page.click('[data-stat="Promoted"] a');
    await page.waitForURL(`${baseUrl}/t/lab/skills/staged-release?from=1&to=2#diff`);
    expect(await page.textContent('[data-testid="diff-caption"]')).toContain(`· amendment #${report.amendmentId}`);
    await page.goBack();
  });

  it("links the promoted version to the amendment that made it, by the amendment's number, and the history shows why", async () => {
    const id = page.url().split("/").pop();
    const amendmentId = (await page.locator("h1 a").first().textContent())!.slice("Amendment #".length);
    await page.goto(`${baseUrl}/t/lab/skills/staged-release`);
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill staged-release | learned | v2]");
    const evidence = page.locator('tr[data-version="2"] a:has-text("amendment")');
    expect(await evidence.textContent()).toBe(`(amendment #${amendmentId})`);
    expect(await evidence.getAttribute("href")).toBe(`/t/lab/history/amendments/${amendmentId}`);
    await page.goto(`${baseUrl}/t/lab/history?skill=staged-release`);
    const kinds = await page
      .locator('[data-testid="events"] li')
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-event")));
    expect(kinds).toEqual(["promoted", "evaluated", "amended", "created"]);
    // Each event opens what it is about: the promotion its diff, the proposal its amendment.
    const promoted = page.locator('[data-testid="events"] li[data-event="promoted"]');
    expect(await promoted.locator("a").allTextContents()).toEqual([
      "staged-release",
      "diff v1 → v2",
      expect.stringMatching(/^amendment #\d+$/),
      `(evaluation #${id})`,
    ]);
    await page.locator('[data-testid="events"] li[data-event="amended"] a:has-text("amendment #")').click();
    await page.waitForURL(/\/t\/lab\/history\/amendments\/\d+$/);
    expect(await page.textContent('[data-testid="amendment-status"]')).toBe("promoted automatically: judged improved");
    expect(await page.locator("li[data-evaluation]").allTextContents()).toEqual([
      expect.stringMatching(
        new RegExp(`^Evaluation #${id} · improved \\(delta \\+\\d\\.\\d{2}\\) · (just now|\\d+ min ago) · promoted as v2$`),
      ),
    ]);
    await page.goBack();
    await page.selectOption('select[name="kind"]', "promoted");
    await page.click('button:has-text("Filter")');
    await page.waitForURL(/kind=promoted/);
    expect(await page.locator('[data-testid="events"] li').count()).toBe(1);
    // The chart draws once its container has been measured, after hydration.
    await page.locator('[data-testid="promotion-decisions-chart"] .recharts-bar-rectangle').first().waitFor();
  });

  it("lets a lead override a neutral verdict from the evaluation page, with a reason, and refuses one without", async () => {
    await api("/api/v1/skills", {
      name: "copy-review",
      description: "Reviews user-facing copy. Use when text changes.",
      body: "# Copy review\n\n1. Read it aloud.\n",
      status: "active",
    });
    await api("/api/v1/observations", {
      observations: [{ skill: "copy-review", task: "same: review the checkout copy", category: "copy", outcome: "partial" }],
    });
    const { id: amendmentId } = await api("/api/v1/skills/copy-review/amendments", {
      body: "# Copy review\n\n1. Read it aloud.\n2. Check it on a phone.\n",
      rationale: "a label wrapped badly on phones",
    });
    const evaluated = await api(`/api/v1/amendments/${amendmentId}/evaluate`, {});
    expect(evaluated.verdict).toBe("neutral");
    await page.goto(`${baseUrl}/t/lab/history/evaluations/${evaluated.id}`);
    const override = page.locator('form[aria-label="Override"]');
    expect(await override.locator("label").textContent()).toBe(
      "The judge found this amendment neutral. Put it live anyway, saying why (a manual override, recorded in the history):",
    );
    await override.locator("textarea").fill("   ");
    await override.locator("button").click();
    expect(await override.locator('[role="alert"]').textContent()).toBe('field "reason": say why you put it live against its verdict');
    expect(await override.locator("textarea").inputValue()).toBe("   ");
    expect(await page.textContent('[data-stat="Promoted"]')).toBe("no");
    await override.locator("textarea").fill("phones are half our traffic; the judge cannot see layouts");
    await override.locator("button").click();
    await page.locator('[data-stat="Promoted"]:has-text("v2")').waitFor();
    expect(await page.textContent('[data-stat="Promoted"]')).toBe("v2");
    expect(await page.textContent('[data-stat="Promoted"] + div')).toBe(
      "manual override: phones are half our traffic; the judge cannot see layouts",
    );
    await page.goto(`${baseUrl}/t/lab/history?skill=copy-review`);
    const latest = page.locator('[data-testid="events"] li').first();
    expect(await latest.getAttribute("data-event")).toBe("overridden");
    expect(await latest.textContent()).toContain("reason: “phones are half our traffic; the judge cannot see layouts”");
  });

  it("lets a person propose an edit as an amendment instead of saving it", async () => {
    await page.goto(`${baseUrl}/t/lab/skills/staged-release`);
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("4. Tell support before the 100% step.\n");
    await page.fill('input[name="reason"]', "support was surprised twice");
    await page.click("text=Review changes");
    await page.click("text=Propose as amendment");
    await page.waitForSelector("text=/^Proposed as amendment #\\d+\\./");
    const listed = await api("/api/v1/skills/staged-release/amendments");
    expect(listed.amendments[0]).toMatchObject({
      origin: "person",
      base: 2,
      rationale: "support was surprised twice",
      status: "pending",
    });
    expect(listed.amendments[0].body.endsWith("4. Tell support before the 100% step.\n")).toBe(true);
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill staged-release | learned | v2]");
    await page.locator(`tr[data-amendment="${listed.amendments[0].id}"]`).waitFor();
  });
});

/**
 * Generating an amendment waits on the model: the button says it is working while the model holds
 * its answer, and an answer that does not fit is said beside the button, with the skill page kept.
 */
describe.each([
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
])("generating an amendment the model gets wrong, in Chromium at $width px", (viewport) => {
  const skill = `misfit-guide-${viewport.width}`;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await api("/api/v1/skills", {
      name: skill,
      description: "Guides a misfit. Use when testing generation.",
      body: "# Misfit\n\n1. Do it.\n",
      status: "active",
    });
    await api("/api/v1/observations", {
      observations: [{ skill, task: "guide a misfit", category: "guide", outcome: "failure" }],
    });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/lab/skills/${skill}`);
  });
  afterAll(async () => browser?.close());

  it("shows progress while the model holds its answer, then says what did not fit and keeps the page", async () => {
    const panel = page.locator('[data-testid="generate-amendment"]');
    const button = panel.locator("button");
    const heading = page.getByRole("heading", { level: 1, name: skill, exact: true });
    expect(await heading.count()).toBe(1);
    expect(await button.textContent()).toBe("Generate an amendment from recent failures");
    expect(await panel.getAttribute("aria-busy")).toBe("false");
    // A proposal whose body is not text: set for this request only, so the message is this answer's.
    await judge.answerOnce(
      "## Recent failures\n1. [failure] guide a misfit",
      JSON.stringify({ description: "Guides a misfit.", body: 3, rationale: "x" }),
    );
    await judge.hold();
    try {
      await button.click();
      await panel.locator('button:has-text("Generating…")').waitFor();
      expect(await button.isDisabled()).toBe(true);
      expect(await panel.getAttribute("aria-busy")).toBe("true");
      expect(await panel.locator('[role="status"]').innerText()).toMatch(
        /^Asking the model for an amendment; this can take a minute\. \d+ s$/,
      );
      expect(await heading.count()).toBe(1);
    } finally {
      await judge.release();
    }
    const failure = panel.locator('[data-action-message="refused"]');
    await failure.waitFor();
    expect(await failure.textContent()).toBe(
      'the model\'s answer did not fit: field "body": Invalid input: expected string, received number',
    );
    expect(await failure.getAttribute("role")).toBe("alert");
    // The page is kept: its heading, the button ready again, nothing written, and no error page.
    expect(await heading.count()).toBe(1);
    expect(await button.textContent()).toBe("Generate an amendment from recent failures");
    expect(await button.isDisabled()).toBe(false);
    expect(await panel.getAttribute("aria-busy")).toBe("false");
    expect(await panel.locator('[role="status"]').textContent()).toBe("");
    expect(await page.locator("text=This page could not be shown").count()).toBe(0);
    expect((await api(`/api/v1/skills/${skill}/amendments`)).amendments).toEqual([]);
    // The message fits the screen, however narrow.
    const box = await failure.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    expect(pageErrors).toEqual([]);
  });
});
