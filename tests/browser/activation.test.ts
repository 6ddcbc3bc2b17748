import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { stubControl } from "../helpers/openai-stub";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const model = stubControl(inject("judgeUrl"));
const call = (path: string, init: { method?: string; body?: unknown; session?: string } = {}) =>
  fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${LAB_KEY}`,
      "content-type": "application/json",
      ...(init.session && { "x-agent-session": init.session }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe("the activation page in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await call("/api/v1/skills", {
      body: {
        name: "rollout-guide",
        description: "Rolls a change out in stages. Use when shipping to users.",
        body: "# Rollout\n",
        status: "active",
      },
    });
    const saved = await call("/api/v1/evals/prompt-sets", {
      body: {
        name: "lab-routing",
        cases: [
          { id: "D1", prompt: "Plan the rollout of the new checkout", expected: ["rollout-guide"] },
          { id: "P1", prompt: "Ship this to everyone, a few at a time", expected: ["rollout-guide"] },
          { id: "G1", prompt: "What is the capital of France?", expectNone: true },
        ],
      },
    });
    expect(saved.status).toBe(201);
    for (const session of ["lab-s1", "lab-s2", "lab-s3"]) {
      await call("/api/v1/skills/rollout-guide", { session });
      await call("/api/v1/skills/writing-plans", { session });
    }
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/lab/activation`);
  });
  afterAll(async () => browser?.close());

  it("starts a model run from the page and follows it to its end", async () => {
    await page.selectOption('select[name="promptSet"]', "lab-routing");
    await page.selectOption('select[name="activator"]', "model");
    // The model holds its answers until the page has shown the run in flight.
    await model.hold();
    try {
      await page.click('form[aria-label="Start a run"] button');
      await page.waitForURL(/\/t\/lab\/activation\/runs\/\d+$/);
      expect(await page.textContent('[data-testid="run-status"]')).toMatch(/^running · [0-2] of 3 case-runs/);
    } finally {
      await model.release();
    }
    await page.locator('[data-testid="run-status"]:has-text("finished")').waitFor({ timeout: 30_000 });
    const id = page.url().split("/").pop();
    const run = await (await call(`/api/v1/evals/runs/${id}`)).json();
    expect(run.results.map((r: { id: string; loaded: string[]; passed: boolean }) => [r.id, r.loaded, r.passed])).toEqual([
      ["D1", ["rollout-guide"], true],
      ["G1", [], true],
      ["P1", [], false],
    ]);
    expect(await page.locator('[data-result="D1#1"] td').allTextContents()).toEqual([
      "D1",
      "Plan the rollout of the new checkout",
      "rollout-guide",
      "1",
      "rollout-guide",
      "pass",
    ]);
    expect(await page.textContent('[data-stat="Activation"]')).toBe("50%");
    expect(await page.textContent('[data-stat="P (paraphrase)"]')).toBe("0%");
    expect(await page.textContent('[data-testid="run-listing"]')).toBe(run.listingText);
  });

  it("compares the model run with a lexical run case by case", async () => {
    await page.goto(`${baseUrl}/t/lab/activation`);
    await page.selectOption('select[name="promptSet"]', "lab-routing");
    await page.selectOption('select[name="activator"]', "lexical");
    // Trials mean nothing to a deterministic matcher: the form says so and runs one.
    expect(await page.locator('input[name="trials"]').isDisabled()).toBe(true);
    expect(await page.textContent("#lexical-trials")).toBe("The keyword matcher answers the same every time: one trial says it all.");
    await page.click('form[aria-label="Start a run"] button');
    await page.waitForURL(/\/t\/lab\/activation\/runs\/\d+$/);
    // It works in the background: the run page follows it to its end.
    await page.locator('[data-testid="run-status"]:has-text("finished")').waitFor({ timeout: 30_000 });
    const runs = (await (await call("/api/v1/evals/runs")).json()).runs;
    expect(runs[0].trials).toBe(1);
    await page.goto(`${baseUrl}/t/lab/activation?a=${runs[1].id}&b=${runs[0].id}`);
    const comparison = await (await call(`/api/v1/evals/compare?a=${runs[1].id}&b=${runs[0].id}`)).json();
    for (const c of comparison.cases) {
      expect(await page.locator(`[data-compare="${c.id}"] td`).last().textContent()).toBe(c.change);
    }
    expect(await page.locator('[data-testid="runs-chart"] .recharts-line').count()).toBe(5);
  });

  it("lists never-loaded skills and skills loaded together", async () => {
    const usage = await (await call("/api/v1/usage")).json();
    expect(await page.locator('[data-testid="never-loaded"] li').allTextContents()).toEqual(usage.neverLoaded);
    expect(usage.neverLoaded).toContain("scientific-method");
    expect(await page.locator('[data-testid="co-loaded"] tr').first().locator("td").allTextContents()).toEqual([
      "rollout-guide + writing-plans",
      "3 sessions",
      "100%",
      "merge?",
    ]);
  });

  it("shows the latest recall and activation on the overview", async () => {
    await page.goto(`${baseUrl}/t/lab`);
    const runs = (await (await call("/api/v1/evals/runs")).json()).runs;
    const latest = await (await call(`/api/v1/evals/runs/${runs[0].id}`)).json();
    expect(await page.textContent('[data-stat="Activation"]')).toBe(`${Math.round(latest.metrics.activationRate * 100)}%`);
    const recall = latest.metrics.perSkill["rollout-guide"].recall;
    expect(await page.locator('tr[data-skill="rollout-guide"] td').last().textContent()).toBe(`${Math.round(recall * 100)}%`);
  });
});
