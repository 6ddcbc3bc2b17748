import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { decide, launchBrowser, leadPage } from "../helpers/browser";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = async (method: string, path: string, body?: unknown) =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
/** The version a reader gets, as the view's X-Skill-Version says. */
const servedVersion = async (name: string, query = "") =>
  (await api("GET", `/api/v1/skills/${name}${query}`)).headers.get("x-skill-version");
const labelsIn = (page: Page, version: number) =>
  page.locator(`tr[data-version="${version}"] [data-label]`).evaluateAll((chips) => chips.map((chip) => chip.getAttribute("data-label")));

/** Labels from the versions table (docs/learned-skills.md#labels): a lead puts, moves and takes off labels; readers that ask for one get its version. */
describe.each([
  { width: 1440, height: 900, skill: "label-wide" },
  { width: 390, height: 844, skill: "label-phone" },
])("labels on the versions table at $width px", ({ width, height, skill }) => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const created = await api("POST", "/api/v1/skills", {
      name: skill,
      description: "Checks a release before it ships. Use when cutting a release.",
      body: "# Release\n\n1. Run the tests.\n",
      status: "active",
    });
    expect(created.status).toBe(201);
    const updated = await api("PUT", `/api/v1/skills/${skill}`, {
      body: "# Release\n\n1. Run the tests.\n2. Tag it.\n",
      expectedVersion: 1,
    });
    expect(updated.status).toBe(200);
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width, height } });
    await page.goto(`${baseUrl}/t/lab/skills/${skill}`);
  });
  afterAll(async () => browser?.close());

  it("puts a label on v1 with Enter, without submitting the comparison", async () => {
    const box = page.locator('[data-testid="label-v1"] input');
    await box.scrollIntoViewIfNeeded();
    const bounds = await page.locator('[data-testid="label-v1"] button').boundingBox();
    expect(bounds && bounds.x >= 0 && bounds.x + bounds.width <= width).toBe(true);
    await box.fill("staging");
    await box.press("Enter");
    expect(await decide(page)).toBe("Put label staging on v1? Readers that ask for staging get v1.");
    await page.locator('tr[data-version="1"] [data-label="staging"]').waitFor();
    expect(new URL(page.url()).search).toBe("");
    expect(await labelsIn(page, 1)).toEqual(["staging"]);
    expect(await box.inputValue()).toBe("");
    expect(await servedVersion(skill, "?label=staging")).toBe("1");
    expect(await servedVersion(skill)).toBe("2");
  });

  it("moves the label to v2 with the button, and the history says from where", async () => {
    await page.locator('[data-testid="label-v2"] input').fill("staging");
    await page.locator('[data-testid="label-v2"] button').click();
    await decide(page, { reason: "v2 tags the release" });
    await page.locator('tr[data-version="2"] [data-label="staging"]').waitFor();
    expect(await labelsIn(page, 1)).toEqual([]);
    expect(await servedVersion(skill, "?label=staging")).toBe("2");
    await page.goto(`${baseUrl}/t/lab/history?skill=${skill}`);
    const line = page.locator('[data-event="labelled"]').first();
    expect(await line.textContent()).toContain("label staging moved from v1");
    expect(await line.textContent()).toContain("reason: “v2 tags the release”");
  });

  it("refuses a label that breaks the naming rules and says why, writing nothing", async () => {
    await page.goto(`${baseUrl}/t/lab/skills/${skill}`);
    await page.locator('[data-testid="label-v1"] input').fill("Not A Label");
    await page.locator('[data-testid="label-v1"] button').click();
    await decide(page);
    // The refusal is said in the dialog, beside what the lead wrote; cancelling keeps the box as it was.
    const refusal = page.locator('dialog[open] [role="alert"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('label "Not A Label" may hold only lowercase letters, digits and hyphens');
    await page.locator("dialog[open]").locator("text=Cancel").click();
    await page.locator("dialog[open]").waitFor({ state: "detached" });
    expect(await labelsIn(page, 1)).toEqual([]);
    expect(await page.locator('[data-testid="label-v1"] input').inputValue()).toBe("Not A Label");
  });

  it("takes the label off; a reader still asking for it is told no skill of the team has it", async () => {
    await page.locator('tr[data-version="2"]').locator("text=Remove label staging").click();
    await decide(page);
    await page.locator('tr[data-version="2"] [data-label="staging"]').waitFor({ state: "detached" });
    // No other skill of the lab team carries staging (the other width's skill is labelled canary).
    const asked = await api("GET", `/api/v1/skills/${skill}?label=staging`);
    expect([asked.status, ((await asked.json()) as { error: { code: string } }).error.code]).toEqual([404, "LabelNotFound"]);
    const labels = (await (await api("GET", `/api/v1/skills/${skill}/versions`)).json()) as { versions: { labels: string[] }[] };
    expect(labels.versions.map((v) => v.labels)).toEqual([[], []]);
  });

  it("makes an install link for a label on the settings page: the installer gets the labelled version", async () => {
    expect((await api("PUT", `/api/v1/skills/${skill}/labels/canary`, { version: 1 })).status).toBe(200);
    await page.goto(`${baseUrl}/t/lab/settings#install-links`);
    const form = page.locator('form[aria-label="Create install link"]');
    await form.locator('input[name="label"]').fill("Canary!");
    await form.locator("text=Create install link").click();
    // The refusal says which rule the label breaks, and the box keeps it to be fixed.
    await form.getByText('invalid label: label "Canary!" may hold only lowercase letters, digits and hyphens').waitFor();
    expect(await form.locator('input[name="label"]').inputValue()).toBe("Canary!");

    await form.locator('input[name="label"]').fill("canary");
    await form.locator("text=Create install link").click();
    await form.locator('[data-testid="install-command"]').waitFor();
    const command = (await form.locator('[data-testid="install-command"]').textContent()) ?? "";
    const url = command.replace("npx skills add ", "").trim();
    expect(await form.locator('input[name="label"]').inputValue()).toBe("");
    const index = (await (await fetch(`${url}/.well-known/skills/index.json`)).json()) as { skills: { name: string; version: number }[] };
    expect(index.skills.find((entry) => entry.name === skill)?.version).toBe(1);
    const prefix = new URL(url).pathname.slice(3, 13);
    expect(await page.locator(`tr[data-install-link="${prefix}"] td`).nth(1).textContent()).toBe("canary");
  });
});
