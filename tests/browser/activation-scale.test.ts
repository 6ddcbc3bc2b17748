import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, seriousViolationsHere, signInAt } from "../helpers/browser";
import { syncBody } from "../helpers/installer-catalog";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The activation page of a 10,000-skill catalog (issue 41): its long lists show a page of 50 with
 * their count, page by page at an address of their own, and the page stays small. A server of its
 * own holds the catalog, so no other test's team changes. Nothing was ever loaded in it, so every
 * active skill is never loaded: the 10,000 synced and the 7 built-in ones.
 */
const KEY = "sg_activation_scale_key_000000000001";
const LOGIN = { email: "lead@scale.test", password: "scale-password-0001" };
const SKILLS = 10_000;
const skillName = (i: number) => `skill-${String(i).padStart(5, "0")}`;

describe("the activation page at 10,000 skills", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({
      SKILLGATE_INIT_TEAM: "scale",
      SKILLGATE_INIT_API_KEY: KEY,
      SKILLGATE_INIT_USER_EMAIL: LOGIN.email,
      SKILLGATE_INIT_USER_PASSWORD: LOGIN.password,
    });
    const files = Array.from({ length: SKILLS }, (_, i) => ({
      path: `${skillName(i)}/SKILL.md`,
      content: Buffer.from(
        `---\nname: ${skillName(i)}\ndescription: Handles task family ${i}. Use when family ${i} comes up.\n---\n# Steps\n`,
      ),
    }));
    const sync = await fetch(`${server.url}/api/v1/skills/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: syncBody(files),
    });
    expect(sync.status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1440, 390]) {
    describe(`at ${width} px`, () => {
      let page: Page;

      beforeAll(async () => {
        page = await browser.newPage({ viewport: { width, height: 900 } });
        await signInAt(page, `${server.url}/t/scale/activation`, LOGIN);
      });

      it("shows the first 50 never-loaded skills with their count, and a page's HTML of at most 300 KB", async () => {
        const never = page.locator('[aria-label="Never loaded"]');
        expect(await never.locator('[data-testid="never-loaded"] li').count()).toBe(50);
        expect(await never.locator('[data-testid="list-count"]').textContent()).toBe("10,007 never loaded · showing 1–50");
        expect(await page.textContent('[data-stat="Never loaded"]')).toBe("10,007");
        const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        const html = await (await fetch(`${server.url}/t/scale/activation`, { headers: { cookie } })).text();
        expect(html).toContain('aria-label="Pages of never-loaded skills"');
        expect(html.length).toBeLessThanOrEqual(300 * 1024);
      });

      it("goes on to the next 50 at an address of their own", async () => {
        await page.locator('nav[aria-label="Pages of never-loaded skills"] a[rel="next"]').click();
        await page.waitForURL(`${server.url}/t/scale/activation?never=2#never-loaded`);
        const never = page.locator('[aria-label="Never loaded"]');
        expect(await never.locator('[data-testid="list-count"]').textContent()).toBe("10,007 never loaded · showing 51–100");
        expect(await never.locator('[data-testid="never-loaded"] li').first().textContent()).toBe(skillName(43));
        expect(await never.locator('[data-testid="never-loaded"] li').count()).toBe(50);
        expect(await seriousViolationsHere(page)).toEqual([]);
      });
    });
  }
});
