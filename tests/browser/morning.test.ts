import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { decide, holdScripts, launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { BROWSER_LOGIN, MORNING_KEY } from "./server";

const baseUrl = inject("baseUrl");
const SKILL = "release-notes";
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${MORNING_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
};
const servedVersion = async (query = "") => (await api("GET", `/api/v1/skills/${SKILL}${query}`)).headers.get("x-skill-version");

/** Proposes an amendment as an agent would, then evaluates it from the skill page; lands on its evaluation page. */
async function evaluateFromSkillPage(page: Page, body: string, rationale: string): Promise<{ amendment: number; evaluation: number }> {
  const { id } = (await (await api("POST", `/api/v1/skills/${SKILL}/amendments`, { body, rationale })).json()) as { id: number };
  await page.goto(`${baseUrl}/t/morning/skills/${SKILL}`);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator(`tr[data-amendment="${id}"]`).getByRole("button", { name: "Evaluate", exact: true }).click();
  await page.waitForURL(/\/t\/morning\/history\/evaluations\/\d+$/);
  await page.locator("#approval").waitFor();
  return { amendment: id, evaluation: Number(page.url().split("/").pop()) };
}

/**
 * A lead's full morning through the pages (issue 27): create a skill, evaluate and approve one
 * amendment, reject another, pin, label, roll back, invite — then every page of the team has no
 * serious or critical axe finding and fits a phone.
 */
describe("a lead's morning in Chromium", () => {
  let browser: Browser;
  let page: Page;
  const visited = new Set<string>();

  beforeAll(async () => {
    await api("PATCH", "/api/v1/settings", { autoPromote: false });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(`${baseUrl}/t/morning`);
  });
  afterAll(async () => browser?.close());

  it("creates a skill from the overview", async () => {
    await page.click("text=New learned skill");
    await page.fill('input[name="new-name"]', SKILL);
    await page.fill('textarea[name="new-description"]', "Writes release notes from merged changes. Use when cutting a release.");
    await page.click('form[aria-label="New learned skill"] .cm-content');
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText("# Release notes\n\n1. List the merged changes.\n");
    await page.selectOption('select[name="new-status"]', "active");
    await page.fill('input[name="new-reason"]', "notes were written by hand");
    await page.click('form[aria-label="New learned skill"] button');
    await page.waitForURL(`${baseUrl}/t/morning/skills/${SKILL}`);
    expect(await page.textContent('[data-testid="annotation"]')).toBe(`[skill ${SKILL} | learned | v1]`);
    // The agents' runs the amendments are judged against: "better …" tasks are the ones an amendment can improve.
    await api("POST", "/api/v1/observations", {
      observations: [
        { skill: SKILL, task: "better: notes for 2.4", category: "docs", outcome: "failure" },
        { skill: SKILL, task: "better: notes for 2.5", category: "docs", outcome: "partial" },
      ],
    });
  });

  it("evaluates an amendment and approves it: v2 is live", async () => {
    const { amendment, evaluation } = await evaluateFromSkillPage(
      page,
      "# Release notes\n\n1. List the merged changes.\n2. Group them by who they affect.\n",
      "readers could not find their changes",
    );
    visited.add(`/t/morning/history/evaluations/${evaluation}`).add(`/t/morning/history/amendments/${amendment}`);
    expect(await page.textContent("#approval")).toBe("Awaiting a lead's approval");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("text=Approve and put live");
    await page.locator('[data-stat="Promoted"]:has-text("v2")').waitFor();
    expect(await servedVersion()).toBe("2");
  });

  it("evaluates another and rejects it with a reason: nothing goes live", async () => {
    const { amendment, evaluation } = await evaluateFromSkillPage(
      page,
      "# Release notes\n\n1. Paste the commit log.\n",
      "shorter is better",
    );
    visited.add(`/t/morning/history/evaluations/${evaluation}`).add(`/t/morning/history/amendments/${amendment}`);
    const form = page.locator(`form[aria-label="Reject amendment #${amendment}"]`);
    await form.locator('textarea[name="reason"]').fill("a commit log is not release notes");
    await form.getByRole("button", { name: "Reject", exact: true }).click();
    await page.locator("#approval").waitFor({ state: "detached" });
    expect(await page.textContent('[data-testid="amendment-status"] [data-state]')).toBe(
      `rejected by ${BROWSER_LOGIN.email} just now: “a commit log is not release notes”`,
    );
    expect(await servedVersion()).toBe("2");
  });

  it("keeps the skill page's controls disabled until its script runs, so a click or a keystroke is never lost", async () => {
    // A click that landed before hydration once did nothing: the dialog never opened (CI on a busy machine).
    const scripts = await holdScripts(page);
    const controls = [
      page.locator('tr[data-version="1"]').getByRole("button", { name: "Pin v1" }),
      page.locator('[data-testid="label-v2"] input'),
      page.locator('[data-testid="skill-editor"] input[name="reason"]'),
    ];
    const disabled = () => Promise.all(controls.map((control) => control.isDisabled()));
    try {
      await page.goto(`${baseUrl}/t/morning/skills/${SKILL}`, { waitUntil: "commit" });
      await controls.at(-1)!.waitFor({ state: "attached" });
      expect(scripts.held()).toBeGreaterThan(0);
      expect(await disabled()).toEqual([true, true, true]);
    } finally {
      await scripts.release();
    }
    await page.waitForFunction(() => !document.querySelector<HTMLFieldSetElement>('[data-testid="skill-editor"] fieldset')?.disabled);
    expect(await disabled()).toEqual([false, false, false]);
  });

  it("pins v1, labels v2 staging, unpins, and rolls back to v1", async () => {
    await page.goto(`${baseUrl}/t/morning/skills/${SKILL}`);
    await page.locator('tr[data-version="1"]').locator("text=Pin v1").click();
    await decide(page);
    await page.locator('tr[data-version="1"] [data-testid="pinned"]').waitFor();
    expect(await servedVersion()).toBe("1");

    await page.locator('[data-testid="label-v2"] input').fill("staging");
    await page.locator('[data-testid="label-v2"] button').click();
    await decide(page);
    await page.locator('tr[data-version="2"] [data-label="staging"]').waitFor();
    expect(await servedVersion("?label=staging")).toBe("2");

    await page.locator('tr[data-version="1"]').locator("text=Unpin").click();
    await decide(page);
    await page.locator('[data-testid="pinned"]').waitFor({ state: "detached" });
    await page.locator('tr[data-version="1"]').locator("text=Roll back to v1").click();
    await decide(page);
    await page.locator('tr[data-version="3"]').waitFor();
    expect(await servedVersion()).toBe("3");
    expect(await servedVersion("?label=staging")).toBe("2");
  });

  it("invites a member from the settings page", async () => {
    await page.goto(`${baseUrl}/t/morning/settings`);
    const form = page.locator('form[aria-label="Invite a person"]');
    await form.locator('input[name="email"]').fill("new-editor@skillgate.test");
    await form.locator('select[name="role"]').selectOption("editor");
    await form.locator('button:has-text("Invite")').click();
    await form.locator('[data-testid="invite-url"]').waitFor();
    const invitations = (await (await api("GET", "/api/v1/invitations")).json()) as { invitations: { email: string; role: string }[] };
    expect(invitations.invitations.map(({ email, role }) => `${email} ${role}`)).toEqual(["new-editor@skillgate.test editor"]);
    const history = await page.goto(`${baseUrl}/t/morning/history?skill=${SKILL}`);
    expect(history?.status()).toBe(200);
    const kinds = await page.locator("[data-event]").evaluateAll((items) => items.map((item) => item.getAttribute("data-event")));
    expect(kinds).toEqual([
      "rolled-back",
      "unpinned",
      "labelled",
      "pinned",
      "rejected",
      "evaluated",
      "amended",
      "approved",
      "evaluated",
      "amended",
      "created",
    ]);
  });

  it.each([
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ])("has no serious axe finding on any page of the team after it, at $width px, and fits the screen", async ({ width, height }) => {
    const viewer = await leadPage(browser, { viewport: { width, height } });
    const pages = [
      "/t/morning",
      "/t/morning/listing",
      "/t/morning/activation",
      "/t/morning/ledger",
      "/t/morning/history",
      `/t/morning/history?skill=${SKILL}`,
      "/t/morning/settings",
      `/t/morning/skills/${SKILL}`,
      `/t/morning/skills/${SKILL}?from=1&to=2#diff`,
      ...visited,
    ];
    const findings: string[] = [];
    const wide: string[] = [];
    for (const path of pages) {
      findings.push(...(await seriousViolations(viewer, `${baseUrl}${path}`)));
      const scrollWidth = await viewer.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > width) wide.push(`${path}: ${scrollWidth} px`);
    }
    expect(pages.length).toBe(13);
    expect(findings).toEqual([]);
    expect(wide).toEqual([]);
    await viewer.context().close();
  });
});
