import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { GOVERNED_KEY, LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
/** A call to the API as the team's key; anything but a success fails the test, except an answer it says it expects. */
const apiAs =
  (key: string) =>
  async (path: string, init: { method?: string; body?: unknown; expect?: number[] } = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (res.status >= 300 && !init.expect?.includes(res.status)) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };
const lab = apiAs(LAB_KEY);
const governed = apiAs(GOVERNED_KEY);

/** A skill of three versions, none of whose runs failed: made once, the second width finds it (409). */
const COMPARED = "in-place-compare";
const BODIES = ["# Deploy\n\n1. Build.\n", "# Deploy\n\n1. Build.\n2. Ship.\n", "# Deploy\n\n1. Build.\n2. Ship it.\n3. Watch.\n"];
/** A skill with a failed run: an amendment can be generated from it. */
const FAILING = "in-place-failing";

async function learnedSkill(name: string, bodies: string[]): Promise<void> {
  const [first, ...rest] = bodies;
  const created = await lab("/api/v1/skills", {
    body: { name, description: `Does ${name}. Use when ${name} is due.`, body: first, status: "active" },
    expect: [409],
  });
  if (created.status === 409) return;
  for (const [i, body] of rest.entries()) await lab(`/api/v1/skills/${name}`, { method: "PUT", body: { body, expectedVersion: i + 1 } });
}

/** An amendment of a new governed skill judged improved, waiting for a lead (the team's auto-promotion is off). */
async function awaitingAmendment(skill: string): Promise<number> {
  await governed("/api/v1/skills", {
    body: {
      name: skill,
      description: `Writes ${skill}. Use when ${skill} are due.`,
      body: `# ${skill}\n\n1. Write it.\n`,
      status: "active",
    },
  });
  await governed("/api/v1/observations", {
    body: { observations: [{ skill, task: `better: the ${skill} for the outage`, category: "ops", outcome: "failure" }] },
  });
  const res = await governed(`/api/v1/skills/${skill}/amendments`, {
    body: { body: `# ${skill}\n\n1. Write it.\n2. Say who owns each open item.\n`, rationale: `${skill} kept losing open items` },
  });
  const { id } = (await res.json()) as { id: number };
  const report = (await (await governed(`/api/v1/amendments/${id}/evaluate`, { body: {} })).json()) as { verdict: string };
  expect(report.verdict).toBe("improved");
  return id;
}

/** Sets a marker on the page's window: a full reload (a new document) loses it, a change in place keeps it. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __marker: 1 }));
const documentKept = (page: Page) => page.evaluate(() => (window as unknown as { __marker?: number }).__marker === 1);

/** The removals and additions of the Versions section's diff as shown. */
async function shownMarks(page: Page) {
  const view = page.locator('section[aria-label="Versions"] [data-view]:visible');
  return { del: await view.locator("del").allTextContents(), ins: await view.locator("ins").allTextContents() };
}

/** Issue 41, point 7 and the small ones of point 8, at a desktop's width and a phone's. */
describe.each([
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
])("clicks that change in place at $width px in Chromium", ({ width, height }) => {
  let browser: Browser;
  let page: Page;
  const waiting: Record<"overview" | "history", number> = { overview: 0, history: 0 };

  beforeAll(async () => {
    await learnedSkill(COMPARED, BODIES);
    await learnedSkill(FAILING, ["# Fail\n\n1. Try.\n"]);
    await lab("/api/v1/observations", {
      body: { observations: [{ skill: FAILING, task: "guide the failing run", category: "ops", outcome: "failure" }] },
    });
    await governed("/api/v1/settings", { method: "PATCH", body: { autoPromote: false } });
    waiting.overview = await awaitingAmendment(`in-place-overview-${width}`);
    waiting.history = await awaitingAmendment(`in-place-history-${width}`);
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height } });
    page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => browser?.close());

  it("compares two chosen versions in place; the URL has the pair, and reloading it shows the same", async () => {
    const skill = `/t/lab/skills/${COMPARED}`;
    await page.goto(`${baseUrl}${skill}`);
    // Unasked, the latest version against the one before.
    expect(await shownMarks(page)).toEqual({ del: [], ins: [" it", "3. Watch."] });
    await markDocument(page);
    await page.locator('input[aria-label="compare from v1"]').check();
    await page.locator('input[aria-label="compare to v3"]').check();
    await page.getByRole("button", { name: "Compare the two chosen versions" }).click();
    // The form's fields in the table's order (newest first): `to` comes before `from`.
    await page.waitForURL(`${baseUrl}${skill}?to=3&from=1#diff`);
    await page.locator('section[aria-label="Versions"] [data-view]:visible thead', { hasText: "v1" }).first().waitFor();
    expect(await shownMarks(page)).toEqual({ del: [], ins: ["2. Ship it.", "3. Watch."] });
    expect(await documentKept(page)).toBe(true);

    // The URL is the comparison: reloaded, it shows the same pair, chosen in the table.
    await page.reload();
    expect(await shownMarks(page)).toEqual({ del: [], ins: ["2. Ship it.", "3. Watch."] });
    expect(await page.locator('input[aria-label="compare from v1"]').isChecked()).toBe(true);
    expect(await page.locator('input[aria-label="compare to v3"]').isChecked()).toBe(true);

    // The other view, and the diff of a version with the one before it, change in place too.
    await markDocument(page);
    const other = width === 1440 ? "Unified" : "Split";
    await page.locator('section[aria-label="Versions"] [data-view]:visible').getByRole("link", { name: other }).click();
    await page.waitForURL(`${baseUrl}${skill}?to=3&from=1&view=${other.toLowerCase()}#diff`);
    await page.locator(`section[aria-label="Versions"] [data-view="${other.toLowerCase()}"]`).waitFor();
    await page.locator('tr[data-version="2"]').getByRole("link", { name: "diff with v1" }).click();
    await page.waitForURL(`${baseUrl}${skill}?from=1&to=2#diff`);
    await page.locator('section[aria-label="Versions"] [data-view]:visible thead', { hasText: "v2" }).first().waitFor();
    expect(await shownMarks(page)).toEqual({ del: [], ins: ["2. Ship."] });
    expect(await documentKept(page)).toBe(true);
    expect(await seriousViolations(page, `${baseUrl}${skill}?from=1&to=3#diff`)).toEqual([]);
  });

  it.each([
    { where: "overview", path: "/t/governed" },
    { where: "history", path: "/t/governed/history" },
  ] as const)("takes an approved amendment out of the $where's queue as its notice appears", async ({ where, path }) => {
    const id = waiting[where];
    await page.goto(`${baseUrl}${path}`);
    const entry = page.locator(`[data-testid="approval-queue"] li[data-amendment="${id}"]`);
    await entry.locator("summary").click();
    // Watches every change to the page: at the first one that shows the notice, is the amendment still listed as waiting?
    await page.evaluate((id) => {
      const state = window as unknown as { __listedWithNotice?: boolean };
      new MutationObserver((_, observer) => {
        const notices = [...document.querySelectorAll('[data-action-message="done"]')];
        if (!notices.some((notice) => notice.textContent?.startsWith(`Approved amendment #${id}:`))) return;
        state.__listedWithNotice = document.querySelector(`[data-testid="approval-queue"] li[data-amendment="${id}"]`) !== null;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, id);
    await entry.getByRole("button", { name: "Approve and put live" }).click();
    const skill = `in-place-${where}-${width}`;
    await page.locator('[data-action-message="done"]', { hasText: `Approved amendment #${id}: ${skill} v2 is live.` }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __listedWithNotice?: boolean }).__listedWithNotice)).toBe(false);
    expect(await entry.count()).toBe(0);
    expect((await governed(`/api/v1/skills/${skill}`)).headers.get("x-skill-version")).toBe("2");
  });

  it("clears a created key's name and shows the key once", async () => {
    await page.goto(`${baseUrl}/t/lab/settings`);
    const form = page.locator('form[aria-label="Create API key"]');
    const name = `in-place-${width}`;
    await form.locator('input[name="name"]').fill(name);
    await form.getByRole("button", { name: "Create key" }).click();
    await page.locator(`section[aria-label="API keys"] tr[data-key="${name}"]`).waitFor();
    expect(await form.locator('[data-testid="new-key"]').textContent()).toMatch(/^sg_[A-Za-z0-9_-]{32}$/);
    expect(await form.locator('[data-testid="new-key"]').count()).toBe(1);
    expect(await form.locator('input[name="name"]').inputValue()).toBe("");
  });

  it("says a new invitation expires in 7 days", async () => {
    await page.goto(`${baseUrl}/t/lab/settings`);
    const form = page.locator('form[aria-label="Invite a person"]');
    const email = `in-place-${width}@example.com`;
    await form.locator('input[name="email"]').fill(email);
    await form.locator('select[name="role"]').selectOption("viewer");
    await form.getByRole("button", { name: "Invite" }).click();
    const row = page.locator(`tr[data-invitation="${email}"]`);
    await row.waitFor();
    expect(await row.locator("td").nth(2).textContent()).toBe("in 7 days");
    expect(await seriousViolations(page, `${baseUrl}/t/lab/settings`)).toEqual([]);
  });

  it("offers to generate an amendment only where runs failed, and says why not elsewhere", async () => {
    const note = "No failures observed yet: an amendment is generated from failing runs.";
    await page.goto(`${baseUrl}/t/lab/skills/${COMPARED}`);
    const amendments = page.locator('section[aria-label="Amendments"]');
    expect(await amendments.locator('[data-testid="generate-amendment"]').count()).toBe(0);
    expect(await amendments.locator('[data-testid="no-failures"]').textContent()).toBe(note);

    await page.goto(`${baseUrl}/t/lab/skills/${FAILING}`);
    expect(await amendments.locator('[data-testid="generate-amendment"] button').textContent()).toBe(
      "Generate an amendment from recent failures",
    );
    expect(await amendments.locator('[data-testid="no-failures"]').count()).toBe(0);
    expect(await seriousViolations(page, `${baseUrl}/t/lab/skills/${FAILING}`)).toEqual([]);
  });
});
