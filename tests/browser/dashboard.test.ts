import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, signInAt } from "../helpers/browser";
import { BROWSER_KEY, BROWSER_LOGIN, OTHER_TEAM_KEY } from "./server";

const baseUrl = inject("baseUrl");

describe("the dashboard in Chromium", () => {
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
  });
  afterAll(async () => browser?.close());

  it("sends a signed-out visitor to sign in, refuses a wrong password, and comes back after signing in", async () => {
    await page.goto(`${baseUrl}/t/demo/listing`);
    await page.waitForURL(/\/signin\?callbackUrl=/);
    await page.fill('input[name="email"]', BROWSER_LOGIN.email);
    await page.fill('input[name="password"]', "not the password");
    await page.click('button[type="submit"]');
    await page.waitForSelector('p[role="alert"]');
    expect(await page.textContent('p[role="alert"]')).toBe("That email and password do not match an account.");
    // The refused form keeps the email; only the password is typed again.
    expect(await page.inputValue('input[name="email"]')).toBe(BROWSER_LOGIN.email);
    expect(page.url()).toBe(`${baseUrl}/signin?callbackUrl=%2Ft%2Fdemo%2Flisting`);
    await signInAt(page, `${baseUrl}/t/demo/listing`, BROWSER_LOGIN);
    expect(await page.textContent("h1")).toBe("Listing budget");
  });

  it("shows the exact listing text agents get on the budget page", async () => {
    const api = await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    const text = await api.text();
    expect(await page.textContent('[data-testid="listing-text"]')).toBe(text);
    expect(text.split("\n")[0]).toBe("[skills listing — prefer a matching skill over improvising; load bodies with skill_view]");
    expect(text).toContain("[collision] ci-green-gate (file skills/ci-green-gate) shadowed by file global/ci-green-gate");
    expect(await page.textContent('[data-stat="Skills shown"]')).toBe(
      `${api.headers.get("x-skills-shown")} of ${api.headers.get("x-skills-total")}`,
    );
    // The bar: one Recharts bar segment per part of the listing, plus the free space.
    expect(await page.locator('[data-testid="budget-bar"] .recharts-bar-rectangle').count()).toBe(7);
    const segments = await page.locator('[data-testid="segments"] li').allTextContents();
    expect(segments.map((s) => s.split(":")[0])).toEqual(["Header", "Built-in", "Global", "Workspace", "Learned", "Collisions"]);
    const sum = segments.reduce((total, s) => total + Number(s.split(": ")[1]!.replace(/,/g, "")), 0);
    expect(sum).toBe(Number(api.headers.get("x-listing-chars")));
    // The list is the bar's legend: each group's swatch is its segment's colour, in the bar's order
    // (a legend inside the chart overlapped the bar once it wrapped at 390 px).
    const fills = await page
      .locator('[data-testid="budget-bar"] .recharts-bar-rectangle path')
      .evaluateAll((paths) => paths.map((path) => path.getAttribute("fill")));
    const swatches = await page
      .locator('[data-testid="segments"] li > span[aria-hidden]')
      .evaluateAll((spans) => spans.map((span) => (span as HTMLElement).style.backgroundColor));
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    expect(swatches).toEqual(fills.slice(0, 6).map((fill) => rgb(fill!)));
    expect(await page.locator('[data-testid="budget-bar"] .recharts-legend-wrapper').count()).toBe(0);
    expect(await page.locator('[data-testid="listing-history"] .recharts-line').count()).toBe(2);
    // Descriptions descMax shortened are counted and named, with what each lost.
    const json = await (
      await fetch(`${baseUrl}/api/v1/listing?format=json`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } })
    ).json();
    const cut = json.groups
      .flatMap((g: { entries: { name: string; state: string }[] }) => g.entries)
      .filter((e: { state: string }) => e.state === "cut");
    expect(cut.length).toBeGreaterThan(0);
    expect(await page.locator("[data-shortened]").evaluateAll((items) => items.map((item) => item.getAttribute("data-shortened")))).toEqual(
      cut.map((e: { name: string }) => e.name),
    );
    expect(await page.textContent('[data-testid="shortened"] p')).toMatch(
      new RegExp(`^${cut.length} descriptions are longer than descMax \\(60 characters\\) and shown shortened`),
    );
  });

  it("renders a what-if with what was cut, without changing what agents get", async () => {
    await page.fill('input[name="cap"]', "700");
    await page.fill('input[name="descMax"]', "30");
    await page.click("text=Show what-if");
    await page.waitForURL(/cap=700/);
    const whatIf = await (
      await fetch(`${baseUrl}/api/v1/listing?cap=700&descMax=30&format=json`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } })
    ).json();
    expect(await page.textContent('[data-testid="listing-text"]')).toBe(whatIf.text);
    expect(whatIf.droppedDescriptions + whatIf.droppedEntries).toBeGreaterThan(0);
    expect(await page.locator("[data-cut]").count()).toBe(whatIf.droppedDescriptions + whatIf.droppedEntries);
    expect(await page.locator("[data-cut]").first().getAttribute("data-cut")).toBe("release-checklist");
    const normal = await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    expect(normal.headers.get("x-listing-cap")).toBe("8000");
  });

  it("shows the catalog on the overview with sources, versions, status, lint, views and collisions", async () => {
    await page.goto(`${baseUrl}/t/demo`);
    expect(await page.textContent('[data-testid="row-count"]')).toBe("18 of 18 skills");
    const row = page.locator('tr[data-skill="changelog-writer"]');
    expect(await row.locator("td").allTextContents()).toEqual([
      // Since issue 40 the demo's prompts do work, and the rewritten v2's git calls fail: flagged.
      "changelog-writerloaded, then failing see the failing tools",
      "file · workspace",
      "v2",
      "active",
      "clean",
      "0",
      "0",
      // The views by day, said in words for screen readers.
      "0 views in 7 days, 0 views in 30 days",
      // Proactive and typed (docs/telemetry.md#activations): the demo's telemetry has it typed, then chosen after its new description.
      "7",
      "11",
      "—",
      "—",
      "100%",
    ]);
    // Lint reads as the sentence that says what to fix, not the rule's code.
    expect(await page.locator('tr[data-skill="api-error-envelope"] td').nth(4).textContent()).toBe(
      "The 'when' clause starts after character 60 and is cut from the listing: move it forward",
    );
    expect(await page.locator('tr[data-skill="api-error-envelope"] [data-lint="CutByListing"]').count()).toBe(1);
    const shadowed = page.locator('tr[data-skill="systematic-debugging"][data-status="shadowed"]');
    expect(await shadowed.locator("td").first().textContent()).toBe("systematic-debuggingshadowed by builtin");
    const debugging = page.locator('tr[data-skill="systematic-debugging"][data-status="active"] td');
    expect(await debugging.nth(1).textContent()).toBe("builtin");
    expect(Number(await debugging.nth(6).textContent())).toBeGreaterThan(0);
    expect(await page.textContent('[data-stat="Collisions"]')).toBe("2");
    // A success rate says how many recorded runs it rests on.
    expect(await page.locator('tr[data-skill="release-checklist"] td').nth(11).textContent()).toBe("57% of 7");
    // Filters apply on the server: choosing what to show navigates at once, text on Enter.
    await page.selectOption('select[aria-label="Show"]', "never");
    await page.waitForURL(/show=never/);
    // Never viewed and never activated: changelog-writer, which only telemetry saw, is loaded.
    expect(await page.textContent('[data-testid="row-count"]')).toBe("2 of 18 skills");
    await page.selectOption('select[aria-label="Show"]', "all");
    await page.waitForURL(/show=all/);
    await page.fill('input[aria-label="Filter skills"]', "global");
    await page.press('input[aria-label="Filter skills"]', "Enter");
    await page.waitForURL(/q=global/);
    expect(await page.textContent('[data-testid="row-count"]')).toBe("2 of 18 skills");
    expect(await page.locator('nav[aria-label="Pages of skills"]').count()).toBe(0);
  });

  it("pages a large catalog on the server, sorted and filtered over the whole of it", async () => {
    const files = [...Array(120)].map((_, i) => {
      const name = `bulk-skill-${String(i).padStart(3, "0")}`;
      return {
        path: `${name}/SKILL.md`,
        content: `---\nname: ${name}\ndescription: Does bulk task ${i}. Use when task ${i} comes up.\n---\n# ${name}\n`,
      };
    });
    const sync = (body: unknown) =>
      fetch(`${baseUrl}/api/v1/skills/sync?allowEmpty=true`, {
        method: "POST",
        headers: { authorization: `Bearer ${OTHER_TEAM_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await sync({ files })).status).toBe(200);
    try {
      const html = await (await page.goto(`${baseUrl}/t/other-team`))!.text();
      expect(await page.textContent('[data-testid="row-count"]')).toBe("129 of 129 skills");
      expect(await page.locator("tbody tr").count()).toBe(50);
      expect(html).not.toContain("bulk-skill-119");
      expect(await page.textContent('[data-testid="page-of"]')).toBe("Page 1 of 3 · skills 1–50");
      await page.click('nav[aria-label="Pages of skills"] >> text=Next →');
      await page.waitForURL(`${baseUrl}/t/other-team?page=2`);
      expect(await page.locator("tbody tr").first().getAttribute("data-skill")).toBe("bulk-skill-050");
      // Sorting by name descending starts over on page 1, from the end of the whole catalog.
      await page.click("th >> text=Skill");
      await page.waitForURL(`${baseUrl}/t/other-team?sort=name&dir=desc`);
      const names = await page.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-skill")));
      expect(names.length).toBe(50);
      expect(names[0]).toBe("writing-plans");
      expect(names).toEqual([...names].sort().reverse());
      await page.fill('input[aria-label="Filter skills"]', "bulk-skill-11");
      await page.press('input[aria-label="Filter skills"]', "Enter");
      await page.waitForURL(/q=bulk-skill-11/);
      expect(await page.textContent('[data-testid="row-count"]')).toBe("10 of 129 skills");
      expect(await page.locator("tbody tr").first().getAttribute("data-skill")).toBe("bulk-skill-119");
    } finally {
      await sync({ files: [] });
    }
  });

  it("switches teams, and shows nothing of a team the person is not in", async () => {
    await page.selectOption('select[aria-label="Team"]', "other-team");
    await page.waitForURL(`${baseUrl}/t/other-team`);
    expect(await page.textContent('[data-testid="row-count"]')).toBe("9 of 9 skills");
    const res = await page.goto(`${baseUrl}/t/no-such-team`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Not found");
    // Inside a team, what it does not have is said within its pages, navigation and all.
    for (const path of [
      "/t/demo/skills/no-such-skill",
      "/t/demo/ledger/no-such-plan",
      "/t/demo/history/evaluations/999999",
      "/t/demo/history/amendments/999999",
      "/t/demo/activation/runs/999999",
    ]) {
      const missing = await page.goto(`${baseUrl}${path}`);
      expect(missing?.status(), path).toBe(404);
      expect(await page.locator('[data-testid="not-found"] h1').textContent(), path).toBe("Not found");
      expect(await page.locator('nav[aria-label="Sections"]').count(), path).toBe(1);
    }
    await page.click('[data-testid="not-found"] >> text=Back to the overview');
    await page.waitForURL(`${baseUrl}/t/demo`);
  });

  it("shows invalid skill folders with every error, and the version that keeps serving", async () => {
    const sync = (files: { path: string; content: string }[]) =>
      fetch(`${baseUrl}/api/v1/skills/sync?allowEmpty=true`, {
        method: "POST",
        headers: { authorization: `Bearer ${OTHER_TEAM_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ files }),
      });
    const good = "---\nname: release-notes\ndescription: Writes release notes. Use when shipping.\n---\n# v1\n";
    expect((await sync([{ path: "release-notes/SKILL.md", content: good }])).status).toBe(200);
    const res = await sync([
      { path: "release-notes/SKILL.md", content: "---\nname: release-notes\n---\n# v2 lost its description\n" },
      { path: "Bad_Folder/SKILL.md", content: "---\nname: Bad_Folder\n---\nx\n" },
    ]);
    expect(res.status).toBe(200);
    await page.goto(`${baseUrl}/t/other-team`);
    const panel = page.locator('section[aria-labelledby="invalid-folders"]');
    expect(await panel.locator("h2").textContent()).toBe("Invalid skill folders (2)");
    const folders = panel.locator(":scope > ul > li");
    expect(await folders.count()).toBe(2);
    expect(await folders.nth(0).locator("span").allTextContents()).toEqual(["skills/Bad_Folder", "· not served"]);
    expect(await folders.nth(0).locator("ul li").allTextContents()).toEqual([
      'name "Bad_Folder" may hold only lowercase letters, digits and hyphens',
      'description of "Bad_Folder" is required',
    ]);
    expect(await folders.nth(1).locator("span").allTextContents()).toEqual(["skills/release-notes", "· v1 keeps serving until fixed"]);
    expect(await folders.nth(1).locator("ul li").allTextContents()).toEqual(['description of "release-notes" is required']);
    await sync([]);
  });

  it("lets a lead create a key that is shown once and works, then revoke it", async () => {
    await page.goto(`${baseUrl}/t/demo/settings`);
    await page.fill('form[aria-label="Create API key"] input[name="name"]', "browser-made");
    // Scopes nest: one level of access, not a set of boxes; a telemetry key stands apart.
    expect(
      await page
        .locator('form[aria-label="Create API key"] input[name="access"]')
        .evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value)),
    ).toEqual(["read", "write", "admin", "telemetry"]);
    await page.check('input[name="access"][value="write"]');
    await page.click("text=Create key");
    const key = (await page.locator('[data-testid="new-key"]').textContent())!;
    expect(key).toMatch(/^sg_[A-Za-z0-9_-]{32}$/);
    expect((await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await page.reload();
    expect(await page.locator('[data-testid="new-key"]').count()).toBe(0);
    const row = page.locator('tr[data-key="browser-made"]');
    expect(await row.locator("td").nth(1).textContent()).toBe(`${key.slice(0, 10)}…`);
    expect(await row.locator("td").nth(2).textContent()).toBe("read, write");
    page.once("dialog", (dialog) => void dialog.accept());
    await row.locator("text=Revoke").click();
    await row.locator("text=/^revoked/").waitFor();
    expect((await fetch(`${baseUrl}/api/v1/listing`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it("lets a lead create an install link that is shown once as the command to run, works with no key, then revoke it", async () => {
    await page.goto(`${baseUrl}/t/demo/settings`);
    await page.click("text=Create install link");
    const command = (await page.locator('[data-testid="install-command"]').textContent())!;
    const match = /^npx skills add (http:\/\/\S+\/i\/(sgi_[A-Za-z0-9_-]{32}))$/.exec(command);
    expect(match, command).not.toBeNull();
    const [, url, token] = match!;
    expect(url).toBe(`${baseUrl}/i/${token}`);
    const index = await fetch(`${url}/.well-known/skills/index.json`);
    expect(index.status).toBe(200);
    const withKey = await fetch(`${baseUrl}/.well-known/skills/index.json`, { headers: { authorization: `Bearer ${BROWSER_KEY}` } });
    expect(await index.json()).toEqual(await withKey.json());
    await page.reload();
    expect(await page.locator('[data-testid="install-command"]').count()).toBe(0);
    const row = page.locator(`tr[data-install-link="${token!.slice(0, 10)}"]`);
    expect(await row.locator("td").allTextContents()).toEqual([
      `/i/${token!.slice(0, 10)}…`,
      "—",
      "just now",
      BROWSER_LOGIN.email,
      "Revoke",
    ]);
    page.once("dialog", (dialog) => void dialog.accept());
    await row.locator("text=Revoke").click();
    await row.locator("text=/^revoked/").waitFor();
    expect((await fetch(`${url}/.well-known/skills/index.json`)).status).toBe(401);
  });

  it("invites a person who sets a password, joins with the role and sees only what it allows; a lead changes and removes them", async () => {
    await page.goto(`${baseUrl}/t/demo/settings`);
    const invite = page.locator('form[aria-label="Invite a person"]');
    await invite.locator('input[name="email"]').fill(BROWSER_LOGIN.email);
    await invite.locator("text=Invite").click();
    await invite.locator('p[role="alert"]').waitFor();
    expect(await invite.locator('p[role="alert"]').textContent()).toBe(
      `${BROWSER_LOGIN.email} is already a member of this team (lead); change their role instead`,
    );
    // A refused form keeps what was typed.
    expect(await invite.locator('input[name="email"]').inputValue()).toBe(BROWSER_LOGIN.email);
    await invite.locator('input[name="email"]').fill("newcomer@example.com");
    await invite.locator('select[name="role"]').selectOption("viewer");
    await invite.locator("text=Invite").click();
    const url = (await invite.locator('[data-testid="invite-url"]').textContent())!;
    const until = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await invite.locator('p[role="status"]').textContent()).toBe(
      `Invitation for newcomer@example.com made: pass the link below on (no mail server is configured). It works once, until ${until}.`,
    );
    expect(url).toMatch(new RegExp(`^${baseUrl}/invite/sgv_[A-Za-z0-9_-]{32}$`));

    const guest = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const newcomer = await guest.newPage();
    await newcomer.goto(url);
    expect(await newcomer.textContent("h1")).toBe("Join demo");
    await newcomer.fill('input[name="password"]', "short");
    await newcomer.fill('input[name="confirm"]', "short");
    await newcomer.click("text=Set password and join");
    await newcomer.locator('p[role="alert"]').waitFor();
    expect(await newcomer.textContent('p[role="alert"]')).toBe("Choose a password of at least 12 characters: this one has 5.");
    await newcomer.fill('input[name="password"]', "a long enough password");
    await newcomer.fill('input[name="confirm"]', "a long enough password");
    await newcomer.click("text=Set password and join");
    await newcomer.waitForURL(`${baseUrl}/t/demo`);
    expect(await newcomer.locator('form[aria-label="New learned skill"]').count()).toBe(0);
    await newcomer.goto(`${baseUrl}/t/demo/settings`);
    expect(await newcomer.locator('form[aria-label="Invite a person"]').count()).toBe(0);
    expect(await newcomer.locator("text=Only a lead can change settings and see API keys; you are viewer.").count()).toBe(1);
    await newcomer.goto(url);
    expect(await newcomer.textContent("h1")).toBe("This invitation no longer opens anything");

    await page.reload();
    const row = page.locator('tr[data-member="newcomer@example.com"]');
    await row.locator("select").selectOption("editor");
    await row.locator("text=Save").click();
    await row.locator('p[role="status"]').waitFor();
    expect(await row.locator('p[role="status"]').textContent()).toBe("newcomer@example.com is now editor.");
    await newcomer.goto(`${baseUrl}/t/demo`);
    expect(await newcomer.locator('form[aria-label="New learned skill"]').count()).toBe(1);
    page.once("dialog", (dialog) => void dialog.accept());
    await row.locator("text=Remove").click();
    await page.locator('tr[data-member="newcomer@example.com"]').waitFor({ state: "detached" });
    // The row is gone with the member: the top of the Members section says what happened.
    const done = page.locator('section[aria-label="Members"] [data-action-message="done"]');
    await done.waitFor();
    expect(await done.textContent()).toBe("Removed newcomer@example.com; 1 session(s) ended.");
    // Removing a member ends their sessions: the next page sends them to sign in.
    await newcomer.goto(`${baseUrl}/t/demo`);
    await newcomer.waitForURL(/\/signin\?callbackUrl=/);
    await guest.close();
  });

  it("refuses what the settings contracts refuse, naming the field, and saves nothing", async () => {
    await page.goto(`${baseUrl}/t/demo/settings`);
    const keyForm = page.locator('form[aria-label="Create API key"]');
    await keyForm.locator('input[name="name"]').fill("kept\u0000name");
    await keyForm.locator('input[name="access"][value="admin"]').check();
    await keyForm.locator("text=Create key").click();
    await keyForm.locator('p[role="alert"]').waitFor();
    expect(await keyForm.locator('p[role="alert"]').textContent()).toBe(
      'field "name" holds a NUL character (\\u0000), which text cannot hold; remove it',
    );
    // The refused form keeps what was typed and chosen.
    expect(await keyForm.locator('input[name="name"]').inputValue()).toBe("kept\u0000name");
    expect(await keyForm.locator('input[name="access"][value="admin"]').isChecked()).toBe(true);
    const listingForm = page.locator('form[aria-label="Listing settings"]');
    const cap = await listingForm.locator('input[name="cap"]').inputValue();
    await listingForm.locator('input[name="cap"]').fill("10");
    await listingForm.locator("text=Save").click();
    await listingForm.locator('p[role="alert"]').waitFor();
    expect(await listingForm.locator('p[role="alert"]').textContent()).toBe('field "cap": must be at least 200');
    expect(await listingForm.locator('input[name="cap"]').inputValue()).toBe("10");
    await page.reload();
    expect(await page.locator('tr[data-key^="kept"]').count()).toBe(0);
    expect(await page.locator('form[aria-label="Listing settings"] input[name="cap"]').inputValue()).toBe(cap);
  });

  it("answers \"is v2 better than v1\" where the versions are: each version's loads, runs and recall, by the demo's authors", async () => {
    await page.goto(`${baseUrl}/t/demo/skills/release-checklist`);
    const evidence = (version: number) => page.locator(`tr[data-version="${version}"] td[data-evidence]`).allTextContents();
    expect(await evidence(2)).toEqual(["1", "1 of 1 · 100%", "1 of 2 · 50%"]);
    expect(await evidence(1)).toEqual(["3", "3 of 6 · 50%", "1 of 2 · 50%"]);
    const author = (version: number) => page.locator(`tr[data-version="${version}"] td`).nth(5).textContent();
    expect(await author(2)).toBe("Skillgate");
    expect(await author(1)).toBe("key sam's claude-code · session 7f3a-release");
    expect(await page.textContent('[data-testid="provenance"] dd')).toBe("agent (7f3a-release)");
    // An amendment judged against a version the skill has since left cannot be forced live: the page says why.
    await page.goto(`${baseUrl}/t/demo/history?skill=flaky-test-triage&kind=evaluated`);
    // The oldest of its two evaluations: the first triage amendment, written against v1.
    await page.locator('[data-testid="events"] a:has-text("evaluation #")').last().click();
    await page.waitForURL(/\/t\/demo\/history\/evaluations\/\d+$/);
    expect(await page.textContent('[data-testid="moved-on"]')).toBe(
      "flaky-test-triage has moved on from v1 to v3 since this amendment was written: it can no longer be approved or put live as it is. Re-proposed, its change is applied to the text of v3 as a new amendment to evaluate.",
    );
    expect(await page.locator('form[aria-label="Override"]').count()).toBe(0);
    // The amendment's author is named as version rows and events name theirs.
    expect(await page.textContent('[data-testid="amendment-caption"]')).toMatch(
      /^Amendment #\d+ against v1, written by an agent: key ci-runner · session e2e-checkout, 4 d ago\. Why: “the e2e checkout run missed a network timeout”$/,
    );
  });

  it("shows a loading bar from the click until the next page is there", async () => {
    await page.goto(`${baseUrl}/t/demo`);
    // The ledger is held back until the bar has been seen, so the bar is seen before the page
    // arrives however fast the server answers.
    let letThrough = () => {};
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(/\/t\/demo\/ledger/, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.click('nav[aria-label="Sections"] a:has-text("Ledger")');
      await page.locator("#nprogress").waitFor({ state: "attached" });
      letThrough();
      await page.waitForURL(`${baseUrl}/t/demo/ledger`);
      await page.locator("#nprogress").waitFor({ state: "detached" });
      expect(await page.textContent("h1")).toBe("Experiment ledger");
    } finally {
      letThrough();
      await page.unroute(/\/t\/demo\/ledger/);
    }
  });

  it("logs no errors in the browser console", () => {
    expect(consoleErrors.filter((e) => !e.includes("404"))).toEqual([]);
  });
});
