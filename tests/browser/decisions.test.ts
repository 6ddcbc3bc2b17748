import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations, signInAt } from "../helpers/browser";
import { BROWSER_LOGIN, GOVERNED_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { authorization: `Bearer ${GOVERNED_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
};
const json = async <T>(path: string, init?: { method?: string; body?: unknown }) => (await (await api(path, init)).json()) as T;

/** A learned skill with two failed runs the judge finds the amendment better on, and an amendment judged improved. */
async function awaitingAmendment(skill: string): Promise<{ id: number; evaluationId: number }> {
  await api("/api/v1/skills", {
    body: {
      name: skill,
      description: `Writes ${skill}. Use when ${skill} are due.`,
      body: `# ${skill}\n\n1. Write it.\n`,
      status: "active",
    },
  });
  await api("/api/v1/observations", {
    body: {
      observations: [
        { skill, task: `better: the ${skill} for the outage`, category: "ops", outcome: "failure" },
        { skill, task: `better: the ${skill} for the launch`, category: "ops", outcome: "partial" },
      ],
    },
  });
  const { id } = await json<{ id: number }>(`/api/v1/skills/${skill}/amendments`, {
    body: { body: `# ${skill}\n\n1. Write it.\n2. Say who owns each open item.\n`, rationale: `${skill} kept losing open items` },
  });
  const report = await json<{ id: number; verdict: string }>(`/api/v1/amendments/${id}/evaluate`, { body: {} });
  expect(report.verdict).toBe("improved");
  return { id, evaluationId: report.id };
}

/** Issue 23, as a lead meets it: the queue, decisions that confirm and hold, a rejection that stays said, invitations that belong to their address. */
describe("what a lead decides holds, in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let approved: { id: number; evaluationId: number };
  let rejected: { id: number; evaluationId: number };

  beforeAll(async () => {
    await api("/api/v1/settings", { method: "PATCH", body: { autoPromote: false } });
    approved = await awaitingAmendment("handover-notes");
    rejected = await awaitingAmendment("oncall-summaries");
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/governed`);
  });
  afterAll(async () => browser?.close());

  const queue = () => page.locator('[data-testid="approval-queue"]');
  /** Waits for the section's message to say `text` (an earlier one may still be on screen). */
  const noticeSays = (text: string) => page.locator('[data-action-message="done"]', { hasText: text }).waitFor();

  it("shows a lead's queue on the overview with a count in the navigation; approving and rejecting there say what they did", async () => {
    const waiting = (await json<{ amendments: { id: number }[] }>("/api/v1/amendments?status=awaiting-approval")).amendments.length;
    expect(waiting).toBeGreaterThanOrEqual(2);
    expect(await queue().locator("h2").textContent()).toBe(`Awaiting approval (${waiting})`);
    expect(await page.textContent('nav[aria-label="Sections"] [data-testid="nav-count"]')).toBe(String(waiting));
    const row = queue().locator(`li[data-amendment="${approved.id}"]`);
    expect(await row.locator("a").first().textContent()).toBe("handover-notes");
    await row.locator("summary").click();
    await row.locator("text=Approve and put live").click();
    await noticeSays(`Approved amendment #${approved.id}: handover-notes v2 is live.`);
    await queue().locator(`li[data-amendment="${approved.id}"]`).waitFor({ state: "detached" });
    expect(await queue().locator("h2").textContent()).toBe(`Awaiting approval (${waiting - 1})`);
    expect(await page.textContent('nav[aria-label="Sections"] [data-testid="nav-count"]')).toBe(String(waiting - 1));
    expect((await api("/api/v1/skills/handover-notes")).headers.get("x-skill-version")).toBe("2");

    const other = queue().locator(`li[data-amendment="${rejected.id}"]`);
    await other.locator("summary").click();
    await other.locator("textarea").fill("open items belong in the ticket, not the notes");
    await other.locator('button:has-text("Reject")').click();
    await noticeSays(`Rejected amendment #${rejected.id}: it will not go live.`);
    await queue().locator(`li[data-amendment="${rejected.id}"]`).waitFor({ state: "detached" });
    expect((await api("/api/v1/skills/oncall-summaries")).headers.get("x-skill-version")).toBe("1");
  });

  it("says who rejected an amendment, when and why, wherever it is listed; promoting it is an override with a reason, and the rejection stays", async () => {
    await page.goto(`${baseUrl}/t/governed/skills/oncall-summaries`);
    const row = page.locator(`tr[data-amendment="${rejected.id}"]`);
    expect(await row.getAttribute("data-status")).toBe("rejected");
    const said = new RegExp(
      `^rejected by ${BROWSER_LOGIN.email} (just now|\\d+ min ago): “open items belong in the ticket, not the notes”$`,
    );
    expect(await row.locator("[data-state]").textContent()).toMatch(said);
    // No plain Promote: only a lead's override, which asks why.
    expect(await row.locator('button:has-text("Promote")').count()).toBe(0);
    expect(await row.locator("summary").allTextContents()).toEqual(["Override…"]);

    await page.goto(`${baseUrl}/t/governed/history`);
    const cell = page.locator(`tr[data-evaluation="${rejected.evaluationId}"] [data-amendment-status]`);
    expect(await cell.getAttribute("data-amendment-status")).toBe("rejected");
    expect(await cell.locator("[data-state]").textContent()).toMatch(said);

    await page.goto(`${baseUrl}/t/governed/history/evaluations/${rejected.evaluationId}`);
    expect(await page.textContent("#override")).toBe("Override the rejection");
    const override = page.locator('form[aria-label="Override"]');
    await override.locator("textarea").fill("the ticket system is down this quarter");
    await override.locator("button").click();
    await noticeSays(`Overridden: amendment #${rejected.id} put oncall-summaries v2 live, with your reason in the history.`);
    await page.locator('[data-stat="Promoted"]:has-text("v2")').waitFor();
    expect(await page.textContent('[data-testid="amendment-status"] [data-state]')).toBe(
      `promoted by a manual override of ${BROWSER_LOGIN.email}: “the ticket system is down this quarter”`,
    );
    expect(await page.textContent('[data-testid="amendment-status"] [data-testid="rejection"]')).toMatch(
      /^rejected earlier by lead@skillgate\.test (just now|\d+ min ago): “open items belong in the ticket, not the notes”$/,
    );

    await page.goto(`${baseUrl}/t/governed/history?skill=oncall-summaries`);
    const kinds = await page.locator("[data-event]").evaluateAll((items) => items.map((item) => item.getAttribute("data-event")));
    expect(kinds.slice(0, 4)).toEqual(["overridden", "rejected", "evaluated", "amended"]);
    // The promotion decisions chart counts it as an override.
    await page.locator('[data-testid="promotion-decisions-chart"] .recharts-bar-rectangle path[fill="#d97706"]').first().waitFor();
  });

  it("edits the latest version of a pinned skill, with a banner saying agents keep the pinned one", async () => {
    await api("/api/v1/skills/handover-notes/pin", { body: { version: 1 } });
    await page.goto(`${baseUrl}/t/governed/skills/handover-notes`);
    expect(await page.textContent('[data-testid="pinned-banner"]')).toBe(
      "Pinned: agents get v1 until a lead unpins it. You are editing the latest version, v2; what you save becomes v3, which agents get once the skill is unpinned.",
    );
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText("3. Link the ticket.\n");
    await page.fill('input[name="reason"]', "tickets carry the open items");
    await page.click("text=Review changes");
    await page.click("text=Save as v3");
    await page.waitForSelector("text=Saved as v3.");
    expect(await page.locator("text=/Error \\[/").count()).toBe(0);
    const served = await api("/api/v1/skills/handover-notes");
    expect(served.headers.get("x-skill-version")).toBe("1");
    expect((await api("/api/v1/skills/handover-notes?version=3")).headers.get("x-skill-version")).toBe("3");
    await api("/api/v1/skills/handover-notes/pin", { method: "DELETE" });
  });

  it("lets only the invited address accept an invitation: anyone else is told whose it is, can sign out, and the link stays unused", async () => {
    const { url } = await json<{ url: string }>("/api/v1/invitations", { body: { email: "New.Lead@Example.com", role: "lead" } });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const other = await context.newPage();
    try {
      // A session of its own, through the form: it signs out, and the stored session is every file's.
      await signInAt(other, `${baseUrl}/t/demo`, BROWSER_LOGIN);
      await other.goto(url);
      expect(await other.textContent('[data-testid="not-yours"] [role="alert"]')).toBe(
        `This invitation is for new.lead@example.com, and you are signed in as ${BROWSER_LOGIN.email}. Only new.lead@example.com can accept it; the link stays unused for them. If it is yours, sign out and open it again as new.lead@example.com.`,
      );
      expect(await other.locator("text=/^Accept as/").count()).toBe(0);
      expect(await seriousViolations(other, url)).toEqual([]);
      await other.click(`text=Sign out of ${BROWSER_LOGIN.email}`);
      await other.waitForURL(url);
      // Signed out, the link still opens, for its owner.
      await other.locator('input[name="confirm"]').waitFor();
      expect(await other.inputValue('input[name="email"]')).toBe("new.lead@example.com");
      await other.fill('input[name="password"]', "the new lead's own password");
      await other.fill('input[name="confirm"]', "the new lead's own password");
      await other.click("text=Set password and join");
      await other.waitForURL(`${baseUrl}/t/governed`);
      const members = await json<{ members: { email: string; role: string }[] }>("/api/v1/members");
      expect(members.members.find((m) => m.email === "new.lead@example.com")?.role).toBe("lead");
    } finally {
      await context.close();
    }
  });
});
