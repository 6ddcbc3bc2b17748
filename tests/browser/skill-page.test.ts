import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { decide, launchBrowser, leadPage } from "../helpers/browser";
import { BROWSER_LOGIN, LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json", ...init.headers },
  });

async function replaceBody(page: Page, text: string): Promise<void> {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

describe("the skill page in Chromium", () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await api("/api/v1/skills", {
      method: "POST",
      body: JSON.stringify({
        name: "deploy-guide",
        description: "Guides a deploy step by step. Use when deploying.",
        body: "# Deploy guide\n\n1. Tag the release.\n2. Deploy.\n",
        status: "active",
        reason: "written after the March outage",
      }),
    });
    await api("/api/v1/skills", {
      method: "POST",
      body: JSON.stringify({
        name: "hostile-body",
        description: "Holds markup that must never run. Use when testing.",
        body: '# Hostile\n\n<script>window.__pwned = "script"</script>\n\nText <img src="x" onerror="window.__pwned = \'img\'"> here.\n\n[click](javascript:window.__pwned=1)\n',
      }),
    });
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1400, height: 1000 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/lab/skills/deploy-guide`);
  });
  afterAll(async () => browser?.close());

  it("shows provenance, the rendered body and the exact annotation", async () => {
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill deploy-guide | learned | v1]");
    expect(await page.textContent('[data-testid="provenance"]')).toContain("written after the March outage");
    expect(await page.locator('[data-testid="rendered-body"] h1').textContent()).toBe("Deploy guide");
    expect(await page.locator('[data-testid="rendered-body"] ol li').allTextContents()).toEqual(["Tag the release.", "Deploy."]);
  });

  it("edits in the code editor, shows the diff before saving, saves v2, then rolls back to v1", async () => {
    await replaceBody(page, "# Deploy guide\n\n1. Tag the release.\n2. Run the smoke tests.\n3. Deploy.\n");
    await page.fill('textarea[name="description"]', "I deploy things");
    expect(await page.textContent('[data-testid="live-lint"]')).toBe(
      "[lint] WhatAndWhen: Say what it does AND when to use it (add a 'use when ...' clause)\n" +
        '[lint] ThirdPerson: Write in third person: "Finds root causes ...", not "I can help you ..."',
    );
    await page.fill('textarea[name="description"]', "Guides a deploy step by step. Use when deploying.");
    expect(await page.textContent('[data-testid="live-lint"]')).toBe("[lint] clean");
    await page.fill('input[name="reason"]', "smoke tests caught the last two bad deploys");
    await page.click("text=Review changes");
    const preview = page.locator('[data-testid="diff-preview"] [data-testid="side-by-side"]');
    // The inserted step is one whole added line; the step it pushed down pairs with its old self, the number marked.
    expect(await preview.locator('tr[data-kind="added"] td').allTextContents()).toEqual(["", "", "8", "2. Run the smoke tests."]);
    expect(await preview.locator('tr[data-kind="changed"] td').allTextContents()).toEqual(["8", "2. Deploy.", "9", "3. Deploy."]);
    expect(await preview.locator('tr[data-kind="changed"] :is(del, ins)').allTextContents()).toEqual(["2", "3"]);
    await page.click("text=Save as v2");
    await page.waitForSelector('[data-testid="annotation"]:has-text("v2")');
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill deploy-guide | learned | v2]");
    // The page refreshed under the editor, and the editor still says what it did.
    expect(await page.textContent('[data-testid="skill-editor"] p[role="status"]')).toBe("Saved as v2.");
    await expect
      .poll(() => page.locator('tr[data-version="2"] td').nth(6).textContent())
      .toBe("smoke tests caught the last two bad deploys");
    const view = await (await api("/api/v1/skills/deploy-guide")).text();
    expect(view).toBe("[skill deploy-guide | learned | v2]\n# Deploy guide\n\n1. Tag the release.\n2. Run the smoke tests.\n3. Deploy.\n");

    await page.locator('tr[data-version="1"]').locator("text=Roll back to v1").click();
    expect(await decide(page)).toBe("Make v3 with the content of v1? Agents get it now. Nothing is deleted.");
    await page.waitForSelector('[data-testid="annotation"]:has-text("v3")');
    expect(await (await api("/api/v1/skills/deploy-guide")).text()).toBe(
      "[skill deploy-guide | learned | v3]\n# Deploy guide\n\n1. Tag the release.\n2. Deploy.\n",
    );
    await expect.poll(() => page.locator('tr[data-version="3"] td').first().textContent()).toBe("v3(= v1)diff with v2");
    // A rollback, not the editor's own save, starts the editor afresh from the new version.
    expect(await page.locator('[data-testid="skill-editor"] p[role="status"]').count()).toBe(0);
    // Each version row opens its own diff, scrolled to, with who made it, when and why.
    await page.locator('tr[data-version="2"] a:has-text("diff with v1")').click();
    await page.waitForURL(`${baseUrl}/t/lab/skills/deploy-guide?from=1&to=2#diff`);
    expect(await page.textContent('[data-testid="diff-caption"]')).toMatch(
      new RegExp(
        `^v2 · (just now|\\d+ min ago) · by ${BROWSER_LOGIN.email.replace(/[.]/g, "\\.")} · “smoke tests caught the last two bad deploys”$`,
      ),
    );
    // The page opens on the diff, not at its top with the diff far below.
    const top = await page.locator("#diff").evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(1000 / 2);
  });

  it("shows a stale save as a conflict with the other version's diff, and overwrites nothing", async () => {
    await replaceBody(page, "# Deploy guide\n\nMy edit.\n");
    await api("/api/v1/skills/deploy-guide", {
      method: "PUT",
      body: JSON.stringify({ body: "# Deploy guide\n\nTheir edit.\n", expectedVersion: 3 }),
    });
    await page.click("text=Review changes");
    await page.click("text=Save as v4");
    const conflict = page.locator('[data-testid="conflict"]');
    await conflict.waitFor();
    // A page says what went wrong in words; the agent-facing `Error [Code]: ` prefix is not for people.
    expect(await page.textContent('[data-testid="skill-editor"] p[role="alert"]')).toBe('"deploy-guide" is at v4, not v3');
    expect(await conflict.locator('[data-testid="side-by-side"] tr[data-kind="changed"] td').allTextContents()).toEqual([
      "7",
      "Their edit.",
      "7",
      "My edit.",
    ]);
    expect(await (await api("/api/v1/skills/deploy-guide")).text()).toBe(
      "[skill deploy-guide | learned | v4]\n# Deploy guide\n\nTheir edit.\n",
    );
    await page.click("text=Review my edit on top of v4");
    await page.click("text=Save as v5");
    await page.waitForSelector('[data-testid="annotation"]:has-text("v5")');
    expect(await (await api("/api/v1/skills/deploy-guide")).text()).toBe(
      "[skill deploy-guide | learned | v5]\n# Deploy guide\n\nMy edit.\n",
    );
  });

  it("compares any two versions side by side", async () => {
    await page.goto(`${baseUrl}/t/lab/skills/deploy-guide?from=2&to=4`);
    const diff = page.locator('section[aria-label="Versions"] [data-testid="side-by-side"]');
    expect(await diff.locator("th").allTextContents()).toEqual(["", "v2", "", "v4"]);
    // Three steps replaced by one unlike line: three whole removals and one addition, nothing paired.
    expect(await diff.locator('tr[data-kind="removed"] td:nth-child(2)').allTextContents()).toEqual([
      "1. Tag the release.",
      "2. Run the smoke tests.",
      "3. Deploy.",
    ]);
    expect(await diff.locator('tr[data-kind="added"] td').allTextContents()).toEqual(["", "", "7", "Their edit."]);
    expect(await diff.locator('tr[data-kind="changed"]').count()).toBe(0);
  });

  it("shows markup in a body as text and never runs it", async () => {
    await page.goto(`${baseUrl}/t/lab/skills/hostile-body`);
    const rendered = page.locator('[data-testid="rendered-body"]');
    expect(await rendered.textContent()).toContain('<script>window.__pwned = "script"</script>');
    expect(await rendered.locator("script, img, a").count()).toBe(0);
    expect(await rendered.textContent()).toContain("[click](javascript:window.__pwned=1)");
    await page.click('nav[aria-label="Body view"] a:has-text("Raw SKILL.md")');
    expect(await page.textContent('[data-testid="raw-skill"]')).toContain("onerror=\"window.__pwned = 'img'\"");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  });

  it("promotes a draft, forks a skill into a draft with its lineage, verifies with a report, archives and restores", async () => {
    await page.click('button:has-text("Promote")');
    await page.waitForSelector('[data-testid="annotation"]:has-text("[skill hostile-body | learned | v1]")');
    expect(await page.textContent('[data-action-message="done"]')).toBe("Promoted: v1 is now the active learned skill and in the listing.");
    expect(await (await api("/api/v1/listing")).text()).toContain("- hostile-body: Holds markup that must never run.");

    await page.goto(`${baseUrl}/t/lab/skills/systematic-debugging`);
    await page.click("text=Fork into a new learned skill");
    await page.fill('input[name="fork-name"]', "payments-debugging");
    await page.click('form[aria-label="Fork"] button');
    await page.waitForSelector('text=Forked as draft "payments-debugging" from lab/systematic-debugging@v1.');
    await page.click("text=Open the fork");
    await page.waitForURL(`${baseUrl}/t/lab/skills/payments-debugging`);
    expect(await page.textContent('[data-testid="lineage"]')).toBe("Forked from lab/systematic-debugging@v1");
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill payments-debugging | draft | v1]");

    await page.click("text=Set the verification tier of v1");
    await page.click('form[aria-label="Verify"] button');
    await page.waitForSelector(
      'text=marking "payments-debugging" v1 verified needs a hostile review report: reviewer, attempts, findings and verdict, each filled in',
    );
    await page.fill('textarea[name="reviewer"]', "mallory");
    await page.fill('textarea[name="attempts"]', "followed it on a bug with no reproduction");
    await page.fill('textarea[name="findings"]', "step 1 says what to do then");
    await page.fill('textarea[name="verdict"]', "holds");
    await page.click('form[aria-label="Verify"] button');
    // A server action that writes and re-renders: on a loaded machine (CI once took 27 min) it outlasts the default 5 s.
    await expect.poll(() => page.locator('tr[data-version="1"] td').nth(7).textContent(), { timeout: 20_000 }).toBe("verified");

    await page.click('button:has-text("Archive")');
    await page.waitForSelector('[data-testid="archived"]');
    expect((await api("/api/v1/skills/payments-debugging")).status).toBe(404);
    await page.click('button:has-text("Restore")');
    await page.waitForSelector('[data-testid="annotation"]:has-text("[skill payments-debugging | draft | v1]")');
    expect((await api("/api/v1/skills/payments-debugging")).status).toBe(200);
  });

  it("writes a new learned skill from the overview", async () => {
    await page.goto(`${baseUrl}/t/lab`);
    await page.click("text=New learned skill");
    await page.fill('input[name="new-name"]', "incident-review");
    await page.fill('textarea[name="new-description"]', "Runs a blameless incident review. Use after an outage.");
    await page.click('form[aria-label="New learned skill"] .cm-content');
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText("# Incident review\n\n1. Timeline first.\n");
    await page.fill('input[name="new-reason"]', "the last review skipped the timeline");
    await page.click('form[aria-label="New learned skill"] button');
    await page.waitForURL(`${baseUrl}/t/lab/skills/incident-review`);
    expect(await page.textContent('[data-testid="annotation"]')).toBe("[skill incident-review | draft | v1]");
    expect(await (await api("/api/v1/skills/incident-review")).text()).toBe(
      "[skill incident-review | draft | v1]\n# Incident review\n\n1. Timeline first.\n",
    );
    expect(await page.textContent('[data-testid="provenance"]')).toContain(`user (${BROWSER_LOGIN.email})`);
  });

  it("raised no errors in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
