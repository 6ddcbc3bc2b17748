import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const append = async (slug: string, body: Record<string, unknown>) => {
  const res = await fetch(`${baseUrl}/api/v1/ledger/${slug}`, {
    method: "POST",
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
};

describe("the ledger pages in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await append("login-timeouts", {
      action: "record-hypothesis",
      text: "The session store times out under load",
      skill: "systematic-debugging",
    });
    await append("login-timeouts", {
      action: "record-prediction",
      id: "H1",
      text: "p99 of session reads exceeds 2 s at 500 rps",
      falsifiedBy: "k6 run load/session.js | grep p99",
    });
    await append("login-timeouts", { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "p99=2.8s" });
    await append("login-timeouts", {
      action: "record-prediction",
      id: "H1",
      text: "A connection pool of 20 brings p99 under 500 ms",
      falsifiedBy: "POOL=20 k6 run load/session.js | grep p99",
    });
    await append("login-timeouts", { action: "record-observation", text: "pool exhaustion warnings in the log" });
    await append("docs-rewrite", { action: "record-hypothesis", text: "Shorter pages get read to the end" });
    await append("docs-rewrite", {
      action: "record-prediction",
      id: "H1",
      text: "Scroll depth rises above 70%",
      falsifiedBy: "python analytics/scroll_depth.py --since 2026-11-01",
    });
    await append("docs-rewrite", { action: "record-verdict", id: "P1", verdict: "refuted", evidence: "scroll depth 48%" });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    await page.goto(`${baseUrl}/t/lab/ledger`);
  });
  afterAll(async () => browser?.close());

  it("lists the plans with open predictions, records, pass rate and a chart of the pass rate", async () => {
    const row = page.locator('tr[data-plan="login-timeouts"] td');
    expect(await row.allTextContents()).toEqual([
      "sci.login-timeouts/ledger",
      "systematic-debugging",
      "5",
      "1",
      "100%",
      expect.stringMatching(/^(just now|\d+ min ago)$/),
    ]);
    expect((await page.locator('tr[data-plan="docs-rewrite"] td').allTextContents()).slice(2, 5)).toEqual(["3", "0", "0%"]);
    expect(await page.textContent('[data-stat="Open predictions"]')).toBe("1");
    expect(await page.textContent('[data-stat="Pass rate"]')).toBe("50%");
    expect(await page.locator('[data-testid="pass-rate-week"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);
    // Each skill's bar says how many verdicts its rate rests on (Recharts may wrap a label over two lines).
    const ticks = await page
      .locator('[data-testid="pass-rate-skill"] .recharts-cartesian-axis-tick-value')
      .evaluateAll((labels) => labels.map((label) => [...label.querySelectorAll("tspan")].map((line) => line.textContent).join(" ")));
    expect(ticks.filter((tick) => !tick.endsWith("%"))).toEqual(["systematic-debugging (n=1)", "(no skill named) (n=1)"]);
  });

  it("shows a plan as a timeline with the open prediction and its falsifying command highlighted", async () => {
    await page.click("text=sci.login-timeouts/ledger");
    await page.waitForURL(`${baseUrl}/t/lab/ledger/login-timeouts`);
    expect(await page.locator("[data-record]").evaluateAll((items) => items.map((item) => item.getAttribute("data-record")))).toEqual([
      "H1",
      "O1",
    ]);
    expect(await page.getAttribute('[data-prediction="P1"]', "data-open")).toBe("false");
    expect(await page.textContent('[data-judgement="P1"]')).toBe("V1 confirmed p99=2.8s");
    expect(await page.getAttribute('[data-prediction="P2"]', "data-open")).toBe("true");
    expect(await page.textContent('[data-judgement="P2"]')).toBe("OPEN — not tested yet");
    expect(await page.textContent('[data-falsified-by="P2"]')).toBe("POOL=20 k6 run load/session.js | grep p99");
    const list = await (await fetch(`${baseUrl}/api/v1/ledger/login-timeouts`, { headers: { authorization: `Bearer ${LAB_KEY}` } })).text();
    expect(await page.textContent('[data-testid="list-text"]')).toBe(list);
    expect(list.split("\n")[0]).toBe("[experiment] sci.login-timeouts/ledger: 5 record(s), 1 open prediction(s)");
  });

  it("answers 404 for a plan the team does not have", async () => {
    const res = await page.goto(`${baseUrl}/t/lab/ledger/no-such-plan`);
    expect(res?.status()).toBe(404);
  });
});
