import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage } from "../helpers/browser";
import { LARGE_KEY } from "./server";

const baseUrl = inject("baseUrl");
const listingUrl = `${baseUrl}/t/large/listing`;

interface JsonListing {
  total: number;
  droppedDescriptions: number;
  droppedEntries: number;
  groups: { scope: string; entries: { name: string; state: string }[] }[];
}

/** The entries the cap left out in `state`, in the order it cut them (lowest group first, each from its end), from the API. */
function leftOut(listing: JsonListing, state: "dropped" | "stripped"): string[] {
  return [...listing.groups]
    .reverse()
    .flatMap((group) => [...group.entries].reverse())
    .filter((entry) => entry.state === state)
    .map((entry) => entry.name);
}

/** The budget page at 10,009 skills (issue 41): 50 of each list of what was cut, paged, searchable, and all of it as a download. */
describe("the listing budget page of a team with 10,009 skills", () => {
  let browser: Browser;
  let page: Page;
  let listing: JsonListing;
  let dropped: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(listingUrl);
    const api = await fetch(`${baseUrl}/api/v1/listing?format=json`, { headers: { authorization: `Bearer ${LARGE_KEY}` } });
    listing = (await api.json()) as JsonListing;
    dropped = leftOut(listing, "dropped");
  });
  afterAll(async () => browser?.close());

  it("cuts every description and 9,465 entries of the 10,009 (the figures the other checks rest on)", () => {
    expect(listing.total).toBe(10_009);
    expect(listing.droppedEntries).toBe(9_465);
    expect(listing.droppedDescriptions).toBe(544);
    expect(dropped.length).toBe(9_465);
  });

  it("is at most 300 KB of HTML", async () => {
    const answer = await page.request.get(listingUrl);
    expect(answer.status()).toBe(200);
    expect((await answer.body()).byteLength).toBeLessThanOrEqual(300_000);
  });

  for (const width of [1440, 390]) {
    it(`shows the first 50 entries dropped with their count, the next 50 on page 2, and finds one by name, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(listingUrl);
      const rows = page.locator("#dropped [data-cut]");
      expect(await page.textContent('[data-stat="Entries dropped"]')).toBe("9,465");
      expect(await page.textContent('[data-count="dropped"]')).toBe("9,465 entries dropped: showing 1–50");
      expect(await rows.count()).toBe(50);
      expect(await rows.first().getAttribute("data-cut")).toBe(dropped[0]);
      expect(await page.textContent('[data-count="stripped"]')).toBe("544 descriptions dropped: showing 1–50");
      expect(await page.locator("#stripped [data-cut]").count()).toBe(50);

      await page.locator('nav[aria-label="Pages of entries dropped"] a[rel="next"]').click();
      await page.waitForURL(`${listingUrl}?dropped=2#dropped`);
      await page.waitForSelector('[data-count="dropped"]:text("showing 51–100")');
      expect(await rows.count()).toBe(50);
      expect(await rows.first().getAttribute("data-cut")).toBe(dropped[50]);
      expect(await rows.first().locator("td").first().textContent()).toBe("51");
      // The other list stays at its first page.
      expect(await page.textContent('[data-count="stripped"]')).toBe("544 descriptions dropped: showing 1–50");

      const wanted = dropped[5_000]!;
      await page.fill('form[role="search"] input[name="q"]', wanted);
      await page.click('form[role="search"] button');
      await page.waitForURL(`${listingUrl}?q=${wanted}`);
      expect(await page.textContent('[data-count="dropped"]')).toBe(`1 of 9,465 entries dropped matches "${wanted}"`);
      expect(await rows.count()).toBe(1);
      expect(await rows.first().getAttribute("data-cut")).toBe(wanted);
      // Its place in the whole list, which the search keeps.
      expect(await rows.first().locator("td").first().textContent()).toBe("5,001");
      expect(await page.textContent('[data-count="stripped"]')).toBe(`0 of 544 descriptions dropped match "${wanted}"`);
    });
  }

  it("downloads everything that was cut, one CSV row per entry", async () => {
    await page.goto(listingUrl);
    const href = await page.getAttribute('[data-testid="cut-download"]', "href");
    expect(href).toBe("/t/large/listing/cut.csv");
    const answer = await page.request.get(`${baseUrl}${href}`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = (await answer.text()).trimEnd().split("\r\n");
    expect(lines.length).toBe(1 + 9_465 + 544);
    expect(lines[0]).toBe("name,group,state,lost");
    expect(lines[1]).toBe(`${dropped[0]},workspace,dropped,Handles task family 9999 end to end. Use when family 9999 work comes up.`);
    expect(lines.filter((line) => line.split(",")[2] === "dropped").length).toBe(9_465);
    // Signed out, the download is not served: it sends to sign-in like the page.
    const signedOut = await fetch(`${baseUrl}${href}`, { redirect: "manual" });
    expect(signedOut.status).toBe(307);
  });
});
