import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifySignature } from "@/lib/webhooks/signature";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { waitUntil } from "../helpers/wait";
import { startReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";
import { LAB_KEY } from "./server";

const baseUrl = inject("baseUrl");
/** The lab team: these tests add a webhook of their own and delete it again; its skills are others' to change. */
const settings = `${baseUrl}/t/lab/settings`;
const api = async (path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${LAB_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
};

async function said(message: Locator): Promise<[string | null, string | null]> {
  await message.waitFor();
  return [await message.getAttribute("data-action-message"), await message.textContent()];
}

/**
 * Issue 39, point 7, on the settings page: a lead adds a webhook, copies its secret (which signs
 * what the receiver gets), sends a test event, and reads each delivery with the receiver's answer;
 * on a desktop and on a phone, with no serious accessibility finding.
 */
describe.each([
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
])("webhook settings at $width×$height in Chromium", (viewport) => {
  let browser: Browser;
  let page: Page;
  let receiver: WebhookReceiver;
  const tag = `w${viewport.width}`;
  const skill = `webhook-draft-${tag}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The receiver is down for the promotion and up for the test event.
    receiver.answer = (_n, got) =>
      JSON.parse(got.body).event === "skill.promoted" ? { status: 503, body: "maintenance window" } : { status: 200, body: "thanks" };
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport });
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(settings);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it("adds a webhook, shows its secret once, lists each delivery with its answer, and deletes it", async () => {
    const url = `${receiver.url}/${tag}`;
    const section = page.locator('section[aria-labelledby="webhooks"]');
    const form = section.locator('form[aria-label="Add a webhook"]');
    await form.locator('input[name="url"]').fill(url);
    await form.locator('input[name="events"][value="skill.promoted"]').check();
    await form.locator('button[type="submit"]').click();
    expect(await said(form.locator("[data-action-message]"))).toEqual([
      "done",
      "Webhook added. Copy its signing secret now: it is not shown again.",
    ]);
    const secret = (await form.locator('[data-testid="webhook-secret"]').textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const card = section.locator(`article[aria-label="Webhook to ${url}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain("amendment.awaiting_approval, skill.promoted");
    expect(await card.textContent()).toContain(`signed JSON · secret ${secret.slice(0, 10)}…`);

    // A draft promoted through the API: the receiver gets it signed with the secret the page showed.
    await api("/api/v1/skills", {
      name: skill,
      description: "Drafted for the webhook test. Use when testing.",
      body: "# x\n",
      status: "draft",
    });
    await api(`/api/v1/skills/${skill}/promote`);
    const promoted = await waitUntil(
      () => receiver.received.find((got) => JSON.parse(got.body).data?.skill === skill),
      (got) => got !== undefined,
      { what: "the promotion's delivery" },
    );
    expect(verifySignature(secret, String(promoted!.headers["x-skillgate-signature"]), promoted!.body, Math.floor(Date.now() / 1000))).toBe(
      true,
    );
    expect(JSON.parse(promoted!.body)).toMatchObject({ event: "skill.promoted", team: "lab", data: { skill, version: 1, from: "draft" } });

    await card.locator("button", { hasText: "Send a test event" }).click();
    expect(await said(section.locator("[data-action-message]", { hasText: "Test event" }))).toEqual([
      "done",
      "Test event sent: its delivery and the receiver's answer are listed under the webhook (reload to see the answer).",
    ]);
    await waitUntil(
      () => receiver.received.filter((got) => JSON.parse(got.body).event === "ping").length,
      (n) => n === 1,
      {
        what: "the test event",
      },
    );

    // The log, newest first: the test event answered 200, the promotion 503 and waiting for its next attempt.
    const rows = card.locator("tr[data-delivery]");
    const cells = async () =>
      rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim() ?? "")));
    const log = await waitUntil(
      async () => {
        await page.reload();
        return cells();
      },
      (read) => read.length === 2 && read.every((row) => Number(row[3]) >= 1),
      { what: "both attempts on the page" },
    );
    // The promotion is tried again 10 s after its first attempt: it may have had its second by now.
    expect(log.map(([event, , status, attempts, answer]) => [event, status, event === "ping" ? attempts : "1+", answer])).toEqual([
      ["ping", "delivered", "1", "200 thanks"],
      ["skill.promoted", "pending", "1+", "503 maintenance window"],
    ]);
    expect(log[0]![5]).toBe("—");
    expect(log[1]![5]).toBe("within a minute");

    expect(await seriousViolations(page, settings)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    if (process.env.SKILLGATE_SCREENSHOTS) {
      await card.scrollIntoViewIfNeeded();
      await section.screenshot({ path: `${process.env.SKILLGATE_SCREENSHOTS}/webhooks-${tag}.png` });
    }

    await card.locator("button", { hasText: "Delete" }).click();
    expect(await said(section.locator("[data-action-message]", { hasText: "deleted" }))).toEqual([
      "done",
      "Webhook deleted: nothing more is sent to it.",
    ]);
    await card.waitFor({ state: "detached" });
  });
});
