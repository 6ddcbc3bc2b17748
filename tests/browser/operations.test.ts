import pg from "pg";
import { describe, expect, it } from "vitest";
import { launchBrowser, signInAt } from "../helpers/browser";
import { startFreezingProxy } from "../helpers/freezing-proxy";
import { scratchDatabase } from "../helpers/scratch-database";
import { OPS_LOGIN as LOGIN, opsOn } from "../helpers/ops-team";
import { startServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";

/** What a person sees of the built server when its database freezes or a query breaks. */
describe("the built server under operation, in the browser", () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    "shows a 503 page that says the database is unavailable while PostgreSQL is frozen, and the dashboard again after",
    async () => {
      const scratch = await scratchDatabase("skillgate_ops");
      const proxy = await startFreezingProxy(scratch.url);
      const server = await startServer(opsOn(proxy.url));
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        await signInAt(page, `${server.url}/t/ops`, LOGIN);
        proxy.freeze();
        const frozen = await page.goto(`${server.url}/t/ops/settings`);
        expect(frozen!.status()).toBe(503);
        expect(frozen!.headers()["retry-after"]).toBe("5");
        expect(await page.textContent("h1")).toBe("The database is unavailable");
        // The team's sections stay one click away.
        expect(await page.locator('nav[aria-label="Sections"] a').evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(
          ["/t/ops", "/t/ops/listing", "/t/ops/activation", "/t/ops/ledger", "/t/ops/history", "/t/ops/settings"],
        );
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).toBe(503);
        proxy.thaw();
        await waitUntil(
          async () => (await page.goto(`${server.url}/t/ops/settings`))!.status(),
          (status) => status === 200,
          { what: "the settings page to answer 200 once the database answers again", intervalMs: 100 },
        );
        expect(await page.textContent("h1")).toBe("Settings");
      } finally {
        proxy.thaw();
        await browser.close();
        await server.stop();
        await proxy.close();
        await scratch.drop();
      }
    },
  );
  it.runIf(process.env.TEST_DATABASE_URL)(
    "says a page failed inside the team's pages, with their navigation and a way to try again, when a query breaks",
    async () => {
      const scratch = await scratchDatabase("skillgate_ops");
      const server = await startServer(opsOn(scratch.url));
      const browser = await launchBrowser();
      const broken = new pg.Client({ connectionString: scratch.url });
      try {
        const page = await browser.newPage();
        await signInAt(page, `${server.url}/t/ops`, LOGIN);
        // Someone drops a table by hand: sessions still work, the ledger page's query does not.
        await broken.connect();
        await broken.query("drop table ledger_records cascade");
        await page.goto(`${server.url}/t/ops/ledger`);
        const failed = page.locator('[role="alert"]');
        expect(await failed.locator("h1").textContent()).toBe("This page could not be shown");
        expect(await page.locator('nav[aria-label="Sections"] a').count()).toBe(6);
        expect(await failed.locator("button").textContent()).toBe("Try again");
        // The rest of the team's pages still open.
        await page.click('nav[aria-label="Sections"] a:has-text("Settings")');
        await page.waitForURL(`${server.url}/t/ops/settings`);
        expect(await page.textContent("h1")).toBe("Settings");
      } finally {
        await broken.end().catch(() => {});
        await browser.close();
        await server.stop();
        await scratch.drop();
      }
    },
  );
});
