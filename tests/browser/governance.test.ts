import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { decide, launchBrowser, leadPage } from "../helpers/browser";
import { BROWSER_LOGIN, GOVERNED_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = async (path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${GOVERNED_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
};

/** Governed promotion (docs/learned-skills.md#governed-promotion): a lead turns auto-promotion off; an improved amendment waits for their approval, then goes live. */
describe("governed promotion in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await api("/api/v1/skills", {
      name: "incident-review",
      description: "Reviews an incident without blame. Use when writing a postmortem.",
      body: "# Review\n\n1. Write what happened.\n",
      status: "active",
    });
    await api("/api/v1/observations", {
      observations: [
        { skill: "incident-review", task: "better: review the outage", category: "ops", outcome: "failure" },
        { skill: "incident-review", task: "better: review the data loss", category: "ops", outcome: "partial" },
      ],
    });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    await page.goto(`${baseUrl}/t/governed/settings`);
  });
  afterAll(async () => browser?.close());

  it("holds an improved amendment until a lead approves it on the evaluation page, then it is live and in the history", async () => {
    const switchForm = page.locator('form[aria-label="Auto-promotion"]');
    await switchForm.locator('input[name="autoPromote"]').uncheck();
    await switchForm.locator("text=Save").click();
    await switchForm.locator('p[role="status"]').waitFor();
    expect(await switchForm.locator('p[role="status"]').textContent()).toBe(
      "Auto-promotion is off: an improved amendment waits for a lead's approval on its evaluation page.",
    );
    expect(await (await api("/api/v1/settings")).json()).toMatchObject({ autoPromote: false });

    const amendment = (await (
      await api("/api/v1/skills/incident-review/amendments", {
        body: "# Review\n\n1. Write the timeline.\n2. Name the contributing factors, not people.\n",
        rationale: "reviews kept naming people",
      })
    ).json()) as { id: number };
    const report = (await (await api(`/api/v1/amendments/${amendment.id}/evaluate`, {})).json()) as { id: number; verdict: string };
    expect(report.verdict).toBe("improved");
    expect((await api("/api/v1/skills/incident-review")).headers.get("x-skill-version")).toBe("1");

    await page.goto(`${baseUrl}/t/governed/history/evaluations/${report.id}`);
    expect(await page.textContent("#approval")).toBe("Awaiting a lead's approval");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("text=Approve and put live");
    // The page shows what the approval did: the new version, and by whom.
    await page.locator('[data-stat="Promoted"]:has-text("v2")').waitFor();
    expect(await page.locator('[data-stat="Promoted"] + div').textContent()).toBe("approved by a lead");
    expect(await page.textContent('[data-testid="amendment-status"] [data-state]')).toBe(`promoted: approved by ${BROWSER_LOGIN.email}`);
    expect(await page.textContent('[data-action-message="done"]')).toBe(`Approved amendment #${amendment.id}: incident-review v2 is live.`);
    expect(await page.locator("#approval").count()).toBe(0);
    expect((await api("/api/v1/skills/incident-review")).headers.get("x-skill-version")).toBe("2");

    await page.goto(`${baseUrl}/t/governed/history`);
    const kinds = await page.locator("[data-event]").evaluateAll((items) => items.map((item) => item.getAttribute("data-event")));
    expect(kinds.slice(0, 3)).toEqual(["approved", "evaluated", "amended"]);
  });

  it("lets a lead pin the version agents get from the skill page, and unpin it", async () => {
    await page.goto(`${baseUrl}/t/governed/skills/incident-review`);
    await page.locator('tr[data-version="1"]').locator("text=Pin v1").click();
    await decide(page);
    await page.locator('tr[data-version="1"] [data-testid="pinned"]').waitFor();
    expect(await page.textContent('tr[data-version="1"] [data-testid="pinned"]')).toBe("pinned: agents get this one");
    // The Pin button is gone once it has worked; the top of the Versions section still says what it did.
    expect(await page.textContent('section[aria-label="Versions"] [data-action-message="done"]')).toBe(
      "Pinned: agents get v1 until you unpin it.",
    );
    const pinned = await api("/api/v1/skills/incident-review");
    expect(await pinned.text()).toBe("[skill incident-review | learned | v1]\n# Review\n\n1. Write what happened.\n");
    await page.locator('tr[data-version="1"]').locator("text=Unpin").click();
    await decide(page);
    await page.locator('[data-testid="pinned"]').waitFor({ state: "detached" });
    expect((await api("/api/v1/skills/incident-review")).headers.get("x-skill-version")).toBe("2");
  });
});
