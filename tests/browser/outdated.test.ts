import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, leadPage, seriousViolations } from "../helpers/browser";
import { stubControl } from "../helpers/openai-stub";
import { OUTDATED_KEY } from "./server";

const baseUrl = inject("baseUrl");
const judge = stubControl(inject("judgeUrl"));
const api = async <T = unknown>(path: string, method = "GET", body?: unknown): Promise<T> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${OUTDATED_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

const V1 = "# Merge\n\n1. Check out the branch.\n2. Run the tests.\n3. Open the pull request.\n";
const RELEASE_BRANCH = "# Merge\n\n1. Check out the release branch.\n2. Run the tests.\n3. Open the pull request.\n";
const ASK_FOR_REVIEW = "# Merge\n\n1. Check out the branch.\n2. Run the tests.\n3. Open the pull request and ask for review.\n";
const BOTH = "# Merge\n\n1. Check out the release branch.\n2. Run the tests.\n3. Open the pull request and ask for review.\n";
const FEATURE_BRANCH = "# Merge\n\n1. Check out the feature branch.\n2. Run the tests.\n3. Open the pull request.\n";
const REGENERATED = "# Merge\n\n1. Check out the release branch, then the feature branch.\n2. Run the tests.\n3. Open the pull request.\n";

interface Listed {
  id: number;
  status: string;
  outdated: boolean;
  body: string | null;
  origin: string;
}

/**
 * Issue 39, point 5, in Chromium: after one of two amendments on one version is approved, the other
 * is marked out of date wherever it is listed, offers no Approve but "Re-propose against v2", and
 * leaves the navigation's count; re-proposed it holds both changes, and a change that does not apply
 * says so and offers the model.
 */
describe.each([
  { width: 1440, height: 1000 },
  { width: 390, height: 844 },
])("out-of-date amendments in Chromium at $width px", (viewport) => {
  const skill = `merge-steps-${viewport.width}`;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let approved: number;
  let waiting: number;
  let clashing: number;
  let evaluationOfWaiting: number;

  const amend = async (body: string, rationale: string) =>
    (await api<{ id: number }>(`/api/v1/skills/${skill}/amendments`, "POST", { body, rationale })).id;
  const amendments = async () => (await api<{ amendments: Listed[] }>(`/api/v1/skills/${skill}/amendments`)).amendments;
  const shot = (name: string) => page.screenshot({ path: `/tmp/outdated-${name}-${viewport.width}.png`, fullPage: true });

  beforeAll(async () => {
    await api("/api/v1/settings", "PATCH", { autoPromote: false });
    await api("/api/v1/skills", "POST", { name: skill, description: "Merges a branch. Use when merging.", body: V1, status: "active" });
    await api("/api/v1/observations", "POST", {
      observations: [{ skill, task: "better: merge the release", category: "merge", outcome: "failure", feedback: "wrong branch" }],
    });
    approved = await amend(RELEASE_BRANCH, "merges went to the wrong branch");
    waiting = await amend(ASK_FOR_REVIEW, "nobody reviewed");
    clashing = await amend(FEATURE_BRANCH, "features live on their own branch");
    for (const id of [approved, waiting]) {
      const report = await api<{ id: number; verdict: string }>(`/api/v1/amendments/${id}/evaluate`, "POST", {});
      expect(report.verdict).toBe("improved");
      evaluationOfWaiting = report.id;
    }
    await api(`/api/v1/amendments/${approved}/approve`, "POST");
    browser = await launchBrowser();
    page = await leadPage(browser, { viewport });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/t/outdated/history`);
  });
  afterAll(async () => browser?.close());

  it("marks the other amendment out of date in the queue and on its evaluation, with Re-propose instead of Approve, and counts it nowhere", async () => {
    const entry = page.locator(`[data-testid="approval-queue"] li[data-amendment="${waiting}"]`);
    expect(await entry.locator('[data-testid="outdated"]').textContent()).toBe("Out of date — written against v1, the skill is at v2");
    expect(await page.textContent("#awaiting-approval")).toBe("Awaiting approval (0)");
    expect(await page.textContent('[data-testid="approval-queue"] > p')).toBe(
      "Nothing waits that a lead can approve. 1 judged improved is out of date, not counted: its skill has moved on since, so re-propose it against the current version (or reject it).",
    );
    expect(await entry.locator("text=Approve or reject").count()).toBe(0);
    expect(await entry.locator('[data-testid="repropose"] button').textContent()).toBe("Re-propose against v2");
    // Nothing waits that a lead can approve: no count beside History, nor on the phone menu's button.
    expect(await page.locator('[aria-label$="awaiting approval"]').count()).toBe(0);
    await shot("queue");
    await page.locator('[data-testid="approval-queue"]').screenshot({ path: `/tmp/outdated-queue-box-${viewport.width}.png` });

    await page.goto(`${baseUrl}/t/outdated/history/evaluations/${evaluationOfWaiting}`);
    expect(await page.textContent('[data-testid="amendment-status"] [data-testid="outdated"]')).toBe(
      "Out of date — written against v1, the skill is at v2",
    );
    expect(await page.locator("#approval").count()).toBe(0);
    expect(await page.locator("text=Approve and put live").count()).toBe(0);
    expect(await page.textContent('[data-testid="moved-on"]')).toBe(
      `${skill} has moved on from v1 to v2 since this amendment was written: it can no longer be approved or put live as it is. Re-proposed, its change is applied to the text of v2 as a new amendment to evaluate.`,
    );
    await shot("evaluation");
    for (const path of ["/t/outdated/history", `/t/outdated/history/evaluations/${evaluationOfWaiting}`, `/t/outdated/skills/${skill}`]) {
      expect(await seriousViolations(page, `${baseUrl}${path}`)).toEqual([]);
    }
  });

  it("re-proposes it from the skill page: a new pending amendment holding both changes, the old one superseded and linked", async () => {
    await page.goto(`${baseUrl}/t/outdated/skills/${skill}`);
    const row = page.locator(`tr[data-amendment="${waiting}"]`);
    expect(await row.locator('[data-testid="outdated"]').textContent()).toBe("Out of date — written against v1, the skill is at v2");
    expect(await row.locator("text=Approve or reject").count()).toBe(0);
    expect(await row.locator("text=Evaluate").count()).toBe(0);
    await shot("skill-page");
    await row.locator("text=Re-propose against v2").click();
    const done = page.locator('[data-action-message="done"]');
    await done.waitFor();
    const made = (await amendments())[0]!;
    expect(await done.textContent()).toBe(
      `Re-proposed amendment #${waiting} against v2 as amendment #${made.id}: evaluate it to have it judged.`,
    );
    expect([made.status, made.outdated, made.body]).toEqual(["pending", false, BOTH]);
    await page.locator(`tr[data-amendment="${waiting}"][data-status="superseded"]`).waitFor();
    expect(await row.locator("[data-state]").textContent()).toBe(
      `superseded: re-proposed against a newer version as amendment #${made.id}`,
    );
    expect(await row.locator(`a[href="/t/outdated/history/amendments/${made.id}"]`).count()).toBe(1);
    expect(await page.textContent(`tr[data-amendment="${made.id}"] [data-testid="reproposed-from"]`)).toBe(
      `re-proposed from amendment #${waiting}`,
    );
    expect(pageErrors).toEqual([]);
  });

  it("says where a change does not apply, writes nothing, and lets the model write it again", async () => {
    await page.goto(`${baseUrl}/t/outdated/skills/${skill}`);
    const row = page.locator(`tr[data-amendment="${clashing}"]`);
    const before = (await amendments()).length;
    await row.locator("text=Re-propose against v2").click();
    const refused = row.locator('[data-action-message="refused"]');
    await refused.waitFor();
    expect(await refused.textContent()).toBe(
      `amendment #${clashing}'s change does not apply cleanly to v2 of "${skill}": it and v2 both changed the body at line 3 of v1; nothing was written. Regenerate it with the model, or propose a new amendment by hand.`,
    );
    expect((await amendments()).length).toBe(before);
    await shot("conflict");
    await page.locator('section[aria-label="Amendments"]').screenshot({ path: `/tmp/outdated-conflict-box-${viewport.width}.png` });
    // The model's answer for this amendment's regeneration only.
    await judge.answerOnce(
      `amendment #${clashing}, written against v1`,
      JSON.stringify({
        description: "Merges a branch. Use when merging.",
        body: REGENERATED,
        rationale: "feature branches come from the release",
      }),
    );
    await row.locator("text=Regenerate with the model").click();
    const done = page.locator('[data-action-message="done"]');
    await done.waitFor();
    const made = (await amendments())[0]!;
    expect(await done.textContent()).toBe(
      `Re-proposed amendment #${clashing} against v2, written again by the model, as amendment #${made.id}: evaluate it to have it judged.`,
    );
    expect([made.status, made.origin, made.body]).toEqual(["pending", "generated", REGENERATED]);
    await page.locator(`tr[data-amendment="${clashing}"][data-status="superseded"]`).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
