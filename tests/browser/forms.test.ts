import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { holdScripts, launchBrowser, leadPage } from "../helpers/browser";
import { BROWSER_LOGIN, GOVERNED_KEY } from "./server";

const baseUrl = inject("baseUrl");
/** The governed team: these tests add keys, links, people and amendments of their own names, and take them away again. */
const team = `${baseUrl}/t/governed`;
const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { authorization: `Bearer ${GOVERNED_KEY}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
};

const INSTALL_LINK_NOTE =
  "npx skills add writes this link, token included, into the project's skills-lock.json, which is meant to be committed: " +
  "anyone who can read the repository can then read the team's skills through it until it is revoked. " +
  "Give each repository a link of its own (for a label, if it should install that label's versions); " +
  "when one leaks, revoke it below and make a new one. " +
  "Run the installer with DO_NOT_TRACK=1, or it also sends the link to its telemetry service (add-skill.vercel.sh).";

/** What an action said, as one message: its role, its kind and its words. */
async function said(message: Locator): Promise<[string | null, string | null, string | null]> {
  await message.waitFor();
  return [await message.getAttribute("role"), await message.getAttribute("data-action-message"), await message.textContent()];
}

/** Whether `upper` is drawn above `lower`: a slot's message is at the top of its section. */
async function above(upper: Locator, lower: Locator): Promise<boolean> {
  const [a, b] = [await upper.boundingBox(), await lower.boundingBox()];
  return a !== null && b !== null && a.y + a.height <= b.y;
}

/** Issue 27 (4, 5 and part of 8): what a lead's forms keep, say and stop showing, on a desktop and on a phone. */
describe.each([
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
])("action forms at $width×$height in Chromium", (viewport) => {
  let browser: Browser;
  let page: Page;
  const tag = `w${viewport.width}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport });
    page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => browser?.close());

  it("takes a new key's panel away when that key is revoked, not when another is, and says so at the top of API keys", async () => {
    await page.goto(`${team}/settings`);
    const section = page.locator('section[aria-label="API keys"]');
    const form = section.locator('form[aria-label="Create API key"]');
    const create = async (name: string) => {
      await form.locator('input[name="name"]').fill(name);
      await form.locator("button", { hasText: "Create key" }).click();
      await section.locator(`tr[data-key="${name}"]`).waitFor();
      return (await form.locator('[data-testid="new-key"]').textContent())!;
    };
    const older = `${tag}-older`;
    const newer = `${tag}-newer`;
    await create(older);
    const key = await create(newer);
    expect(key).toMatch(/^sg_[A-Za-z0-9_-]{32}$/);
    expect(await said(form.locator("[data-action-message]"))).toEqual([
      "status",
      "done",
      "Key created. Copy it now: it is not shown again.",
    ]);

    await section.locator(`tr[data-key="${older}"] button`, { hasText: "Revoke" }).click();
    await section.locator(`tr[data-key="${older}"]`).locator("text=/^revoked/").waitFor();
    // Another key's revocation leaves the new key's panel where it was.
    expect(await form.locator('[data-testid="new-key"]').textContent()).toBe(key);

    await section.locator(`tr[data-key="${newer}"] button`, { hasText: "Revoke" }).click();
    await section.locator(`tr[data-key="${newer}"]`).locator("text=/^revoked/").waitFor();
    expect(await form.locator('[data-testid="new-key"]').count()).toBe(0);
    const message = section.locator('[data-action-message="done"]').first();
    expect(await said(message)).toEqual(["status", "done", "Key revoked."]);
    expect(await above(message, form)).toBe(true);
    const res = await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(401);
  });

  it("takes a new install link's command away when that link is revoked; a revoke of a gone link is refused at the top of the section", async () => {
    await page.goto(`${team}/settings`);
    const section = page.locator('section[aria-labelledby="install-links"]');
    const form = section.locator('form[aria-label="Create install link"]');
    const create = async () => {
      const command = form.locator('[data-testid="install-command"]');
      // Wait for this link's command, not the one before it: read before the click, since the answer can be on the page before a read after it.
      const before = (await command.count()) ? await command.textContent() : null;
      await form.locator("button", { hasText: "Create install link" }).click();
      // The server action and the page it renders again: more than poll's default second on a busy machine (CI saw it).
      await expect.poll(async () => ((await command.count()) ? await command.textContent() : null), { timeout: 10_000 }).not.toBe(before);
      const token = /\/i\/(sgi_[A-Za-z0-9_-]{32})$/.exec((await command.textContent())!)![1]!;
      const row = section.locator(`tr[data-install-link="${token.slice(0, 10)}"]`);
      await row.waitFor();
      return { token, row };
    };
    const first = await create();
    // Issue 28: where the link ends up, said in the panel that shows it, readable on a phone too.
    const note = form.locator('[data-testid="install-link-note"]');
    expect(await note.textContent()).toBe(INSTALL_LINK_NOTE);
    const box = (await note.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const second = await create();
    // The first one revoked elsewhere (by API) while the page still offers its button: the page's revoke is refused.
    const links = (await api("/api/v1/install-links")) as { links: { id: number; prefix: string }[] };
    const firstId = links.links.find((link) => first.token.startsWith(link.prefix))!.id;
    await api(`/api/v1/install-links/${firstId}`, { method: "DELETE" });
    await first.row.locator("button", { hasText: "Revoke" }).click();
    const refused = section.locator('[data-action-message="refused"]');
    expect(await said(refused)).toEqual(["alert", "refused", `no active install link ${firstId} in this team`]);
    expect(await above(refused, form)).toBe(true);
    expect(await form.locator('[data-testid="install-command"]').textContent()).toBe(`npx skills add ${baseUrl}/i/${second.token}`);

    await second.row.locator("button", { hasText: "Revoke" }).click();
    await second.row.locator("text=/^revoked/").waitFor();
    expect(await form.locator('[data-testid="install-command"]').count()).toBe(0);
    expect(await note.count()).toBe(0);
    expect(await said(section.locator("[data-action-message]").first())).toEqual(["status", "done", "Install link revoked."]);
    expect((await fetch(`${baseUrl}/i/${second.token}/.well-known/skills/index.json`)).status).toBe(401);
  });

  it("keeps email and role when an invitation is refused, clears the email and keeps the role when it is sent", async () => {
    await page.goto(`${team}/settings`);
    const form = page.locator('form[aria-label="Invite a person"]');
    await form.locator('input[name="email"]').fill(BROWSER_LOGIN.email);
    await form.locator('select[name="role"]').selectOption("editor");
    await form.locator("button", { hasText: "Invite" }).click();
    expect(await said(form.locator("[data-action-message]"))).toEqual([
      "alert",
      "refused",
      `${BROWSER_LOGIN.email} is already a member of this team (lead); change their role instead`,
    ]);
    expect(await form.locator('input[name="email"]').inputValue()).toBe(BROWSER_LOGIN.email);
    expect(await form.locator('select[name="role"]').inputValue()).toBe("editor");

    const email = `forms-${tag}@example.com`;
    await form.locator('input[name="email"]').fill(email);
    await form.locator("button", { hasText: "Invite" }).click();
    await form.locator('[data-testid="invite-url"]').waitFor();
    const [role, kind, text] = await said(form.locator("[data-action-message]"));
    expect([role, kind]).toEqual(["status", "done"]);
    expect(text).toMatch(new RegExp(`^Invitation for ${email.replace(".", "\\.")} made: pass the link below on`));
    expect(await form.locator('input[name="email"]').inputValue()).toBe("");
    expect(await form.locator('select[name="role"]').inputValue()).toBe("editor");
  });

  it("never puts a password in the address: the invitation's form waits for the page's script before it can be sent", async () => {
    // Submitted by hand, the form has no action of its own: sent before hydration, the browser would
    // GET the page with ?password=… in the address (its history, the server's and proxies' logs).
    const { url } = (await api("/api/v1/invitations", { body: { email: `early-${tag}@example.com`, role: "viewer" } })) as { url: string };
    const context = await browser.newContext({ viewport });
    const scripts = await holdScripts(context);
    try {
      const sent: string[] = [];
      context.on("request", (request) => void (request.url().includes("password=") && sent.push(request.url())));
      const joiner = await context.newPage();
      await joiner.goto(url, { waitUntil: "commit" });
      const submit = joiner.getByRole("button", { name: "Set password and join" });
      await submit.waitFor({ state: "attached" });
      expect(scripts.held()).toBeGreaterThan(0);
      const early = await submit.isDisabled();
      for (const field of ["password", "confirm"]) await joiner.fill(`input[name="${field}"]`, "typed before the script");
      // A form the browser sends goes at once, well before the page below has hydrated.
      await joiner.press('input[name="confirm"]', "Enter");
      await scripts.release();
      await joiner.waitForFunction(() => !document.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled);
      expect([early, sent, joiner.url()]).toEqual([true, [], url]);
    } finally {
      await scripts.release();
      await context.close();
    }
  });

  it("keeps a too-short password on the invitation page and says what to fix; the member joins, and removing them is said at the top of Members", async () => {
    const email = `joiner-${tag}@example.com`;
    const { url } = (await api("/api/v1/invitations", { body: { email, role: "viewer" } })) as { url: string };
    const context = await browser.newContext({ viewport });
    try {
      const joiner = await context.newPage();
      await joiner.goto(url);
      await joiner.fill('input[name="password"]', "short");
      await joiner.fill('input[name="confirm"]', "short");
      await joiner.click("text=Set password and join");
      expect(await said(joiner.locator("[data-action-message]"))).toEqual([
        "alert",
        "refused",
        "Choose a password of at least 12 characters: this one has 5.",
      ]);
      expect(await joiner.inputValue('input[name="password"]')).toBe("short");
      expect(await joiner.inputValue('input[name="confirm"]')).toBe("short");
      await joiner.fill('input[name="password"]', "short but now long enough");
      await joiner.fill('input[name="confirm"]', "short but now long enough");
      await joiner.click("text=Set password and join");
      await joiner.waitForURL(team);
    } finally {
      await context.close();
    }

    await page.goto(`${team}/settings`);
    const members = page.locator('section[aria-label="Members"]');
    await members.locator(`tr[data-member="${email}"] button`, { hasText: "Remove" }).click();
    await members.locator(`tr[data-member="${email}"]`).waitFor({ state: "detached" });
    const message = members.locator("[data-action-message]").first();
    expect(await said(message)).toEqual(["status", "done", `Removed ${email}; 1 session(s) ended.`]);
    expect(await above(message, members.getByRole("table").first())).toBe(true);
  });

  it("says an approval at the top of the queue, which stays when the amendment's row goes", async () => {
    await api("/api/v1/settings", { method: "PATCH", body: { autoPromote: false } });
    const skill = `forms-approval-${tag}`;
    await api("/api/v1/skills", {
      body: { name: skill, description: `Writes ${skill}. Use when one is due.`, body: `# ${skill}\n\n1. Write it.\n`, status: "active" },
    });
    await api("/api/v1/observations", {
      body: { observations: [{ skill, task: `better: the ${skill} for the outage`, category: "ops", outcome: "failure" }] },
    });
    const { id } = (await api(`/api/v1/skills/${skill}/amendments`, {
      body: { body: `# ${skill}\n\n1. Write it.\n2. Name its owner.\n`, rationale: "nobody owned them" },
    })) as { id: number };
    expect((await api(`/api/v1/amendments/${id}/evaluate`, { body: {} })).verdict).toBe("improved");

    await page.goto(team);
    const queue = page.locator('[data-testid="approval-queue"]');
    const row = queue.locator(`li[data-amendment="${id}"]`);
    await row.locator("summary").click();
    await row.locator("button", { hasText: "Approve and put live" }).click();
    await row.waitFor({ state: "detached" });
    const message = page.locator("[data-action-message]").first();
    expect(await said(message)).toEqual(["status", "done", `Approved amendment #${id}: ${skill} v2 is live.`]);
    expect(await above(message, queue)).toBe(true);
  });

  it("edits prompt sets on Activation only; Settings links there", async () => {
    await page.goto(`${team}/settings`);
    expect(await page.locator('textarea[name="prompt-set-json"]').count()).toBe(0);
    const link = page.locator('section[aria-label="Prompt sets"] a');
    expect(await link.getAttribute("href")).toBe("/t/governed/activation#prompt-sets");
    await link.click();
    await page.waitForURL(`${team}/activation#prompt-sets`);
    const sets = page.locator("section#prompt-sets");
    expect(await sets.getAttribute("aria-label")).toBe("Prompt sets");
    expect(await sets.locator('textarea[name="prompt-set-json"]').count()).toBe(1);
    // Opened at the editor, not at the top of the page.
    const top = await sets.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(viewport.height);
  });
});
