import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations, type StoredSession } from "../helpers/browser";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
const lab = (path: string, body?: unknown, method = "POST") =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A person in the lab team only, to see another team's address from outside it. */
const OUTSIDER = { email: "nav-outsider@lab.test", password: "outsider's long password" };
/** A lab skill whose v1 is pinned, for the widest versions row a lead sees: a badge and three buttons. */
const PINNED = "nav-pinned-versions";

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

const box = async (locator: Locator) => (await locator.boundingBox())!;
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

let browser: Browser;
/** The outsider's session, from joining: what their pages are opened with. */
let outsiderSession: StoredSession;

beforeAll(async () => {
  browser = await launchBrowser();
  const invited = await lab("/api/v1/invitations", { email: OUTSIDER.email, role: "viewer" });
  expect(invited.status).toBe(201);
  const joining = await browser.newContext();
  try {
    const page = await joining.newPage();
    await page.goto((await invited.json()).url);
    await page.fill('input[name="password"]', OUTSIDER.password);
    await page.fill('input[name="confirm"]', OUTSIDER.password);
    await page.click("text=Set password and join");
    await page.waitForURL(`${baseUrl}/t/lab`);
    outsiderSession = await joining.storageState();
  } finally {
    await joining.close();
  }
  const created = await lab("/api/v1/skills", {
    name: PINNED,
    description: "Checks quilt seams for zebra stripes. Use when quilting.",
    body: "# Quilt\n\n1. Check the seams.\n",
    status: "active",
  });
  expect(created.status).toBe(201);
  const amended = await lab(
    `/api/v1/skills/${PINNED}`,
    { body: "# Quilt\n\n1. Check the seams.\n2. Check the stripes.\n", expectedVersion: 1, reason: "stripes matter" },
    "PUT",
  );
  expect(amended.status).toBe(200);
  expect((await lab(`/api/v1/skills/${PINNED}/pin`, { version: 1 })).status).toBe(200);
});
afterAll(async () => browser?.close());

for (const viewport of VIEWPORTS) {
  const phone = viewport.width < 1024;

  describe(`navigation at ${viewport.width}×${viewport.height} in Chromium`, () => {
    let page: Page;

    beforeAll(async () => {
      page = await leadPage(browser, { viewport });
      page.on("dialog", (dialog) => void dialog.dismiss());
    });
    afterAll(async () => page?.context().close());

    const menuButton = () => page.locator('[data-testid="nav-menu"]');
    const menu = () => page.locator('nav[aria-label="Sections menu"]');

    if (phone) {
      it("opens the sections as a full-width row of the header that pushes the page down, never wider than the screen", async () => {
        await page.goto(`${baseUrl}/t/demo/ledger`);
        expect(await page.locator('nav[aria-label="Sections"]').isVisible()).toBe(false);
        expect(await menuButton().evaluate((el) => el.tagName)).toBe("BUTTON");
        expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
        expect(await menuButton().getAttribute("aria-controls")).toBe(await menu().getAttribute("id"));
        expect(await menu().isVisible()).toBe(false);
        const mainClosed = await box(page.locator("main"));

        await menuButton().click();
        expect(await menuButton().getAttribute("aria-expanded")).toBe("true");
        expect(await menu().isVisible()).toBe(true);
        expect((await menu().locator("a").allTextContents()).map((text) => text.replace(/\d+$/, ""))).toEqual([
          "Overview",
          "Listing budget",
          "Activation",
          "Ledger",
          "History",
          "Settings",
        ]);
        const opened = await box(menu());
        expect(opened.x).toBeGreaterThanOrEqual(0);
        expect(opened.x + opened.width).toBeLessThanOrEqual(390);
        // A row of its own, as wide as the header's content (16 px of padding each side).
        expect(opened.width).toBe(390 - 32);
        expect(await pageWidth(page)).toBe(390);
        // In the header's flow: the page starts below it, moved down by the menu's height.
        const mainOpen = await box(page.locator("main"));
        expect(mainOpen.y).toBeGreaterThanOrEqual(opened.y + opened.height);
        expect(mainOpen.y - mainClosed.y).toBeGreaterThanOrEqual(opened.height);
      });

      it("closes on Escape, giving focus back to the button when it was in the menu", async () => {
        await page.goto(`${baseUrl}/t/demo/ledger`);
        await menuButton().click();
        await menu().locator("a").first().focus();
        await page.keyboard.press("Escape");
        expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
        expect(await menu().isVisible()).toBe(false);
        expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("nav-menu");
      });

      it("closes on navigation, from the menu or from the page, leaving the next page's title in view", async () => {
        await page.goto(`${baseUrl}/t/demo/settings`);
        await menuButton().click();
        await menu().locator("text=Ledger").click();
        await page.waitForURL(`${baseUrl}/t/demo/ledger`);
        expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
        expect(await menu().isVisible()).toBe(false);
        expect(await page.textContent("h1")).toBe("Experiment ledger");
        // Nothing covers the title: the element at its middle is the title itself.
        const title = await box(page.locator("h1"));
        const header = await box(page.locator("header"));
        expect(title.y).toBeGreaterThan(header.y + header.height);
        expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.tagName, [title.x + 5, title.y + title.height / 2])).toBe(
          "H1",
        );

        // A link in the page, not the menu's, also closes it.
        await menuButton().click();
        expect(await menu().isVisible()).toBe(true);
        const plan = page.locator('main a[href^="/t/demo/ledger/"]').first();
        const href = (await plan.getAttribute("href"))!;
        await plan.click();
        await page.waitForURL(`${baseUrl}${href}`);
        expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
        expect(await menu().isVisible()).toBe(false);
      });
    } else {
      it("shows the sections in a row, with no menu button", async () => {
        await page.goto(`${baseUrl}/t/demo/ledger`);
        const row = page.locator('nav[aria-label="Sections"]');
        expect(await row.isVisible()).toBe(true);
        expect(await row.locator("a").count()).toBe(6);
        expect(await row.locator('a[aria-current="page"]').textContent()).toBe("Ledger");
        expect(await menuButton().isVisible()).toBe(false);
        expect(await menu().isVisible()).toBe(false);
      });
    }

    it("puts a lead's Pin, Unpin and Roll back buttons on the screen, second in each version's row", async () => {
      for (const path of ["/t/demo/skills/release-checklist", `/t/lab/skills/${PINNED}`]) {
        await page.goto(`${baseUrl}${path}`);
        expect(await page.locator('[data-testid="versions"] thead th').nth(1).textContent()).toBe("Actions");
        const rows = page.locator('[data-testid="versions"] tbody tr[data-version]');
        const shown = await rows.evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll("td:nth-child(2) button")].map((button) => button.textContent)),
        );
        expect(shown, path).toEqual(
          path.includes(PINNED)
            ? [
                ["Label v2", "Pin v2"],
                ["Label v1", "Unpin", "Roll back to v1"],
              ]
            : [
                ["Label v2", "Pin v2"],
                ["Label v1", "Pin v1", "Roll back to v1"],
              ],
        );
        // Every control of the column is on the screen, not past the evidence to the right.
        const buttons = rows.locator("td:nth-child(2) button, td:nth-child(2) input");
        for (let i = 0; i < (await buttons.count()); i++) {
          const control = await box(buttons.nth(i));
          const name = `${path} ${await buttons.nth(i).evaluate((el) => el.textContent || el.getAttribute("placeholder"))}`;
          expect(control.x, name).toBeGreaterThanOrEqual(0);
          expect(control.x + control.width, name).toBeLessThanOrEqual(viewport.width);
        }
        expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      }
    });

    it(
      phone
        ? "says a table that overflows scrolls sideways, with a shade on each edge that has more"
        : "shows no scroll cue where the recorded runs fit",
      async () => {
        await page.goto(`${baseUrl}/t/demo/skills/release-checklist`);
        // The recorded runs, a table that stays one on a phone (the versions are cards there since issue 41).
        const versions = page.locator('[role="region"][aria-label="Recorded runs"]');
        const scrollBox = versions.locator("xpath=../..");
        const cue = scrollBox.locator('[data-testid="scroll-cue"]');
        const left = scrollBox.locator('[data-testid="scroll-shade-left"]');
        const right = scrollBox.locator('[data-testid="scroll-shade-right"]');
        const [clientWidth, scrollWidth] = await versions.evaluate((el) => [el.clientWidth, el.scrollWidth]);
        if (!phone) {
          expect(scrollWidth).toBe(clientWidth);
          expect([await cue.count(), await left.count(), await right.count()]).toEqual([0, 0, 0]);
          return;
        }
        expect(scrollWidth).toBeGreaterThan(clientWidth);
        await cue.waitFor();
        expect(await cue.textContent()).toBe("Scroll sideways for more →");
        expect(await cue.isVisible()).toBe(true);
        expect([await left.count(), await right.count()]).toEqual([0, 1]);
        // The shade lies over the box's right edge.
        const region = await box(versions);
        const shade = await box(right);
        expect(shade.x + shade.width).toBeCloseTo(region.x + region.width, 0);
        await versions.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        await left.waitFor();
        expect(await right.count()).toBe(0);
        await versions.evaluate((el) => el.scrollTo({ left: 40 }));
        await right.waitFor();
        expect([await left.count(), await right.count(), await cue.count()]).toEqual([1, 1, 1]);
      },
    );

    it("underlines the amendment links inside the versions table's text (axe link-in-text-block)", async () => {
      const path = "/t/demo/skills/release-checklist";
      const found = await seriousViolations(page, `${baseUrl}${path}`);
      expect(await page.locator('[data-testid="versions"] a:has-text("(amendment #")').count()).toBeGreaterThan(0);
      expect(found.filter((line) => line.includes("link-in-text-block"))).toEqual([]);
    });

    it("switches teams: the same section from a section's page, the overview from a page of one skill", async () => {
      await page.goto(`${baseUrl}/t/demo/ledger`);
      await page.selectOption('select[aria-label="Team"]', "other-team");
      await page.waitForURL(`${baseUrl}/t/other-team/ledger`);
      expect(await page.textContent("h1")).toBe("Experiment ledger");
      await page.selectOption('select[aria-label="Team"]', "demo");
      await page.waitForURL(`${baseUrl}/t/demo/ledger`);

      await page.goto(`${baseUrl}/t/demo/skills/release-checklist`);
      await page.selectOption('select[aria-label="Team"]', "other-team");
      await page.waitForURL(`${baseUrl}/t/other-team`);
      expect(await page.locator('[data-testid="not-found"]').count()).toBe(0);
      expect(await page.textContent("h1")).toBe(await page.locator('select[aria-label="Team"] option:checked').textContent());
    });

    it("keeps a gap between neighbouring columns' words in every table of a skill page", async () => {
      await page.goto(`${baseUrl}/t/demo/skills/release-checklist`);
      // For each row, the distance from the end of one cell's text to the start of the next one's.
      const gaps = await page.locator("main table").evaluateAll((tables) =>
        tables.flatMap((table) =>
          [...table.querySelectorAll("tr")].flatMap((row) => {
            const extents = [...row.children].map((cell) => {
              // The words on the screen: text hidden for the eye (sr-only) is left out.
              const rects: DOMRect[] = [];
              const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                // Text hidden for the eye: sr-only, or a card table's header row, which a phone keeps for screen readers only.
                const hidden = node.parentElement?.closest(".sr-only, thead");
                if (!node.textContent?.trim() || (hidden && hidden.getBoundingClientRect().width <= 1)) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                rects.push(...range.getClientRects());
              }
              return rects.length > 0
                ? {
                    left: Math.min(...rects.map((rect) => rect.left)),
                    right: Math.max(...rects.map((rect) => rect.right)),
                    top: Math.min(...rects.map((rect) => rect.top)),
                    bottom: Math.max(...rects.map((rect) => rect.bottom)),
                  }
                : null;
            });
            // Neighbours side by side: on a phone a row laid out as a card wraps its cells onto lines of their own.
            return extents.slice(1).flatMap((extent, i) => {
              const previous = extents[i];
              const beside = extent && previous && extent.top < previous.bottom && previous.top < extent.bottom;
              return beside ? [{ text: row.textContent?.slice(0, 40), gap: extent.left - previous.right }] : [];
            });
          }),
        ),
      );
      expect(gaps.length).toBeGreaterThan(20);
      expect(gaps.filter(({ gap }) => gap < 8)).toEqual([]);
    });

    /** Holds back every request for `path`'s page (its prefetch too) until the returned function is called, as a cold or busy server would. */
    async function holdPage(path: string): Promise<() => Promise<void>> {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname === path,
        async (route) => {
          await held;
          await route.continue();
        },
      );
      return async () => {
        release();
        // Only once the held requests have gone on: removed sooner, Playwright would send them itself.
        await page.unrouteAll({ behavior: "wait" });
      };
    }

    it("answers a click on a section at once, with a pulsing bar under its link until the page comes", async () => {
      await page.goto(`${baseUrl}/t/demo/settings`);
      const release = await holdPage("/t/demo/history");
      try {
        if (phone) await menuButton().click();
        const link = (phone ? menu() : page.locator('nav[aria-label="Sections"]')).locator('a[href="/t/demo/history"]');
        expect(await link.locator('[data-testid="link-pending"]').getAttribute("data-pending")).toBeNull();
        await link.click();
        await link.locator('[data-testid="link-pending"][data-pending="true"]').waitFor({ state: "attached" });
        expect(page.url()).toBe(`${baseUrl}/t/demo/settings`);
      } finally {
        await release();
      }
      await page.waitForURL(`${baseUrl}/t/demo/history`);
      expect(await page.textContent("h1")).toBe("Promotion history");
      expect(await page.locator('[data-testid="link-pending"][data-pending="true"]').count()).toBe(0);
    });

    it("shows the team chosen in the switcher, busy, until its page comes", async () => {
      await page.goto(`${baseUrl}/t/demo/ledger`);
      const team = page.locator('select[aria-label="Team"]');
      const release = await holdPage("/t/other-team/ledger");
      try {
        await team.selectOption("other-team");
        await page.locator('select[aria-label="Team"][aria-busy="true"]').waitFor();
        expect(await team.inputValue()).toBe("other-team");
        expect(page.url()).toBe(`${baseUrl}/t/demo/ledger`);
      } finally {
        await release();
      }
      await page.waitForURL(`${baseUrl}/t/other-team/ledger`);
      await page.locator('select[aria-label="Team"][aria-busy="false"]').waitFor();
      expect(await team.inputValue()).toBe("other-team");
      await team.selectOption("demo");
      await page.waitForURL(`${baseUrl}/t/demo/ledger`);
    });

    it("answers an unknown address inside a team with 404 under the team's navigation", async () => {
      for (const path of ["/t/demo/nope-page", "/t/demo/skills", "/t/demo/ledger/a/b"]) {
        const res = await page.goto(`${baseUrl}${path}`);
        expect(res?.status(), path).toBe(404);
        expect(await page.locator('[data-testid="not-found"] h1').textContent(), path).toBe("Not found");
        expect(await page.locator('[data-testid="not-found"] p').textContent(), path).toBe(
          "This team has nothing at this address: the skill, plan, run or evaluation may have been renamed, archived or never existed.",
        );
        expect(await page.locator('select[aria-label="Team"]').inputValue(), path).toBe("demo");
        expect(await (phone ? menuButton() : page.locator('nav[aria-label="Sections"]')).isVisible(), path).toBe(true);
      }
      await page.click('[data-testid="not-found"] >> text=Back to the overview');
      await page.waitForURL(`${baseUrl}/t/demo`);
    });

    it("answers the root's unknown address with its own 404", async () => {
      const res = await page.goto(`${baseUrl}/no-such-page`);
      expect(res?.status()).toBe(404);
      expect(await page.textContent("h1")).toBe("Not found");
      expect(await page.textContent("main p")).toBe("Nothing is at this address.");
    });

    it("tells a person at a team they are not in that they are in none of that name, with links to their teams", async () => {
      const outsider = await browser.newContext({ viewport, storageState: outsiderSession });
      try {
        const visit = await outsider.newPage();
        for (const [path, team] of [
          ["/t/other-team", "other-team"],
          ["/t/other-team/ledger", "other-team"],
          ["/t/other-team/skills/systematic-debugging", "other-team"],
          ["/t/other-team/nope-page", "other-team"],
          ["/t/no-such-team", "no-such-team"],
        ] as const) {
          const res = await visit.goto(`${baseUrl}${path}`);
          expect(res?.status(), path).toBe(404);
          const notFound = visit.locator('[data-testid="not-found"]');
          expect(await notFound.locator("h1").textContent(), path).toBe("Not found");
          expect(await notFound.locator("p").textContent(), path).toBe(`You are in no team called “${team}”. Your teams:`);
          expect(
            await notFound
              .locator('[data-testid="your-teams"] a')
              .evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute("href")])),
            path,
          ).toEqual([["lab", "/t/lab"]]);
          // The header is there, with their teams to switch to, and nothing of the team they are not in.
          expect(await visit.locator('select[aria-label="Team"] option').allTextContents(), path).toEqual(["Choose a team", "lab"]);
          expect(await visit.locator('nav[aria-label="Sections"]').count(), path).toBe(0);
          expect(await visit.locator('[data-testid="nav-menu"]').count(), path).toBe(0);
          expect(await visit.textContent("main"), path).toBe(`Not foundYou are in no team called “${team}”. Your teams:lab`);
          expect(await pageWidth(visit), path).toBeLessThanOrEqual(viewport.width);
        }
        await visit.click('[data-testid="your-teams"] >> text=lab');
        await visit.waitForURL(`${baseUrl}/t/lab`);
      } finally {
        await outsider.close();
      }
    });
  });
}
