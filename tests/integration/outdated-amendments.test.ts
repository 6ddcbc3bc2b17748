import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { amendments, learnedSkillVersions, learnedSkills, skillEvents } from "@/db/schema";
import { awaitingApproval, awaitingApprovalCount } from "@/lib/evolution/amendments";
import { getTeam } from "@/lib/teams/teams";
import { errorOf, startTestApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { judgeJson, mockJudge } from "../helpers/judge";

/**
 * Issue 39, point 5: an amendment written against a version the skill has moved past is out of
 * date (docs/evaluation-and-activation.md#out-of-date-amendments) — listed so, refused when approved, left out of the approval count — and re-proposing
 * it applies its change to the current text (a three-way merge, or the model writing it again).
 */

const SKILL = "merged";
const V1 = "# merged\n\n1. Check out the branch.\n2. Run the tests.\n3. Open the pull request.\n";
const RELEASE_BRANCH = "# merged\n\n1. Check out the release branch.\n2. Run the tests.\n3. Open the pull request.\n";
const ASK_FOR_REVIEW = "# merged\n\n1. Check out the branch.\n2. Run the tests.\n3. Open the pull request and ask for review.\n";
const BOTH = "# merged\n\n1. Check out the release branch.\n2. Run the tests.\n3. Open the pull request and ask for review.\n";
const FEATURE_BRANCH = "# merged\n\n1. Check out the feature branch.\n2. Run the tests.\n3. Open the pull request.\n";
const REGENERATED = "# merged\n\n1. Check out the release branch, then the feature branch.\n2. Run the tests.\n3. Open the pull request.\n";
const DESCRIPTION = "Merges branches. Use when merging.";

/** The model: a judge for every case (the amendment is better), a proposal when asked to write an amendment. */
const model = mockJudge((prompt) =>
  prompt.includes("## Current SKILL.md")
    ? JSON.stringify({ description: DESCRIPTION, body: REGENERATED, rationale: "the feature branch comes from the release branch" })
    : judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.8, 0.7, 0.6] }, "clearer"),
);

describe.each(testDbKinds)("out-of-date amendments on %s", (kind) => {
  const t = useTestApp(kind, { model, judgeConcurrency: 2 });

  beforeEach(async () => {
    model.model.doGenerateCalls.length = 0;
    const created = await t.call("POST", "/api/v1/skills", { json: { name: SKILL, description: DESCRIPTION, body: V1, status: "active" } });
    expect(created.status).toBe(201);
    const observed = await t.call("POST", "/api/v1/observations", {
      json: { skill: SKILL, task: "merge the release", category: "merge", outcome: "failure", feedback: "wrong branch" },
    });
    expect(observed.status).toBe(201);
    expect((await t.call("PATCH", "/api/v1/settings", { json: { autoPromote: false } })).status).toBe(200);
  });

  const amend = async (change: { body?: string; description?: string }, rationale: string) => {
    const res = await t.call("POST", `/api/v1/skills/${SKILL}/amendments`, { json: { ...change, rationale } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const evaluate = async (id: number) => {
    const res = await t.call("POST", `/api/v1/amendments/${id}/evaluate`);
    expect(res.status).toBe(200);
    return (await res.json()) as { verdict: string; promotedVersion: number | null; promotionNote: string | null };
  };
  const repropose = (id: number, body: Record<string, unknown> = {}) =>
    t.call("POST", `/api/v1/amendments/${id}/repropose`, { json: body });
  const row = async (id: number) => (await t.app.db.select().from(amendments).where(eq(amendments.id, id)))[0]!;
  const listed = async (path = `/api/v1/skills/${SKILL}/amendments`) =>
    ((await (await t.call("GET", path)).json()) as { amendments: Record<string, unknown>[] }).amendments;
  const currentVersion = async () =>
    (await t.app.db.select({ v: learnedSkills.currentVersion }).from(learnedSkills).where(eq(learnedSkills.name, SKILL)))[0]!.v;
  const bodyOf = async (version: number) =>
    (
      await t.app.db.select({ body: learnedSkillVersions.body }).from(learnedSkillVersions).where(eq(learnedSkillVersions.version, version))
    )[0]!.body;
  const amendmentCount = () => t.app.db.$count(amendments);
  const eventCount = () => t.app.db.$count(skillEvents);
  /** The team as a page reads it: its catalog revisions as they are now. */
  const team = () => getTeam(t.app.db, t.alpha.team.id);
  /** Moves the skill on past v1 with a person's edit. */
  const edit = async (change: { body?: string; description?: string }) =>
    expect((await t.call("PUT", `/api/v1/skills/${SKILL}`, { json: { ...change, expectedVersion: await currentVersion() } })).status).toBe(
      200,
    );

  it("two amendments on one base: approving one leaves the other out of date, refused, out of the count; re-proposed, it holds both changes", async () => {
    const first = await amend({ body: RELEASE_BRANCH }, "merges went to the wrong branch");
    const second = await amend({ body: ASK_FOR_REVIEW }, "nobody reviewed");
    for (const id of [first, second]) expect((await evaluate(id)).verdict).toBe("improved");
    expect(await awaitingApprovalCount(t.app, await team())).toBe(2);
    expect((await listed()).map((a) => [a.id, a.status, a.outdated, a.base, a.current])).toEqual([
      [second, "awaiting-approval", false, 1, 1],
      [first, "awaiting-approval", false, 1, 1],
    ]);

    expect((await t.call("POST", `/api/v1/amendments/${first}/approve`)).status).toBe(200);
    expect(await currentVersion()).toBe(2);

    // Out of date wherever it is listed: the skill's amendments, the team's, the lead's queue.
    for (const path of [`/api/v1/skills/${SKILL}/amendments`, "/api/v1/amendments", "/api/v1/amendments?status=awaiting-approval"]) {
      const entry = (await listed(path)).find((a) => a.id === second)!;
      expect([entry.status, entry.outdated, entry.base, entry.current], path).toEqual(["awaiting-approval", true, 1, 2]);
    }
    const approved = (await listed()).find((a) => a.id === first)!;
    expect([approved.status, approved.outdated, approved.base, approved.current]).toEqual(["promoted", false, 1, 2]);
    // It leaves the count a lead is shown, and the queue says how many wait out of date.
    expect(await awaitingApprovalCount(t.app, await team())).toBe(0);
    const queue = await awaitingApproval(t.app, await team(), 5);
    expect([queue.total, queue.outdated, queue.entries.map((e) => [e.id, e.outdated])]).toEqual([0, 1, [[second, true]]]);

    // Approving it, or promoting it (its approval), is a 409 that names the current version; nothing changes.
    const events = await eventCount();
    for (const [path, body] of [
      [`/api/v1/amendments/${second}/approve`, undefined],
      [`/api/v1/amendments/${second}/promote`, {}],
    ] as const) {
      const refused = await t.call("POST", path, { json: body });
      expect([refused.status, await errorOf(refused)]).toEqual([
        409,
        {
          code: "AmendmentOutdated",
          message: `Error [AmendmentOutdated]: amendment #${second} was written against v1 of "merged", which is at v2 now; re-propose it against v2`,
        },
      ]);
    }
    expect([(await row(second)).status, await currentVersion(), await eventCount()]).toEqual(["awaiting-approval", 2, events]);

    // Re-proposed: its change merged onto v2, a new pending amendment linked both ways.
    const res = await repropose(second);
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: number };
    expect(made).toEqual({ id: made.id, status: "pending", base: 2, reproposedFrom: second });
    const [old, fresh] = [await row(second), await row(made.id)];
    expect([old.status, old.supersededBy]).toEqual(["superseded", made.id]);
    expect(fresh).toMatchObject({
      status: "pending",
      baseVersion: 2,
      body: BOTH,
      description: null,
      rationale: `nobody reviewed (re-proposed from #${second})`,
      origin: "agent",
      reproposedFrom: second,
    });
    const entries = await listed();
    expect(
      entries.filter((a) => a.id === made.id || a.id === second).map((a) => [a.id, a.status, a.outdated, a.supersededBy, a.reproposedFrom]),
    ).toEqual([
      [made.id, "pending", false, null, second],
      [second, "superseded", false, made.id, null],
    ]);
    const [amended] = await t.app.db.select().from(skillEvents).where(eq(skillEvents.kind, "amended")).orderBy(skillEvents.id).offset(2);
    expect([amended!.version, amended!.detail]).toEqual([2, { amendmentId: made.id, origin: "agent", reproposedFrom: second }]);

    // Judged and approved, v3 holds both changes.
    expect((await evaluate(made.id)).verdict).toBe("improved");
    expect(await awaitingApprovalCount(t.app, await team())).toBe(1);
    expect((await t.call("POST", `/api/v1/amendments/${made.id}/approve`)).status).toBe(200);
    expect([await currentVersion(), await bodyOf(3)]).toEqual([3, BOTH]);
  });

  it("a change that does not apply cleanly says where and writes nothing; the model writes it again from the same failures", async () => {
    const clashing = await amend({ body: FEATURE_BRANCH }, "features live on their own branch");
    await edit({ body: RELEASE_BRANCH });
    const [amendmentsBefore, eventsBefore] = [await amendmentCount(), await eventCount()];
    const refused = await repropose(clashing);
    expect([refused.status, await errorOf(refused)]).toEqual([
      409,
      {
        code: "MergeConflict",
        message: `Error [MergeConflict]: amendment #${clashing}'s change does not apply cleanly to v2 of "merged": it and v2 both changed the body at line 3 of v1; nothing was written. Have the model write it again ({"regenerate": true}), or propose a new amendment by hand`,
      },
    ]);
    expect([await amendmentCount(), await eventCount(), (await row(clashing)).status]).toEqual([amendmentsBefore, eventsBefore, "pending"]);

    const res = await repropose(clashing, { regenerate: true });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: number };
    expect(await row(made.id)).toMatchObject({
      status: "pending",
      baseVersion: 2,
      body: REGENERATED,
      description: null,
      origin: "generated",
      rationale: `the feature branch comes from the release branch (re-proposed from #${clashing})`,
      reproposedFrom: clashing,
    });
    expect([(await row(clashing)).status, (await row(clashing)).supersededBy]).toEqual(["superseded", made.id]);
    // The model saw the current text, the recorded failure and the change it writes again.
    const prompt = JSON.stringify(model.model.doGenerateCalls.at(-1)!.prompt);
    for (const part of [
      JSON.stringify(RELEASE_BRANCH).slice(1, -1),
      "1. [failure] merge the release\\n   feedback: wrong branch",
      `amendment #${clashing}, written against v1`,
      "Its rationale: features live on their own branch",
      JSON.stringify(FEATURE_BRANCH).slice(1, -1),
    ]) {
      expect(prompt).toContain(part);
    }
  });

  it("the description: taken from the amendment when only it changed it, a conflict when both changed it", async () => {
    const describes = await amend({ description: "Merges branches safely. Use when merging.", body: ASK_FOR_REVIEW }, "say safely");
    await edit({ body: RELEASE_BRANCH });
    const res = await repropose(describes);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    expect(await row(id)).toMatchObject({ description: "Merges branches safely. Use when merging.", body: BOTH });

    const other = await amend({ description: "Merges branches quickly. Use when merging." }, "say quickly");
    await edit({ description: "Merges branches carefully. Use when merging." });
    const refused = await repropose(other);
    expect([refused.status, await errorOf(refused)]).toEqual([
      409,
      {
        code: "MergeConflict",
        message: `Error [MergeConflict]: amendment #${other}'s change does not apply cleanly to v3 of "merged": it and v3 both changed the description; nothing was written. Have the model write it again ({"regenerate": true}), or propose a new amendment by hand`,
      },
    ]);
    expect((await row(other)).status).toBe("pending");
  });

  it("16 concurrent re-proposals of one amendment make exactly one new amendment; the others are told it is superseded", async () => {
    for (let round = 1; round <= 3; round++) {
      const latest = await bodyOf(await currentVersion());
      const id = await amend({ body: latest.replace(/1\. Check out .*\./, `1. Check out branch ${round}.`) }, `round ${round}`);
      await edit({ body: latest.replace(/3\. Open .*\./, `3. Open pull request ${round}.`) });
      const before = await amendmentCount();
      const results = await Promise.all(Array.from({ length: 16 }, () => repropose(id)));
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(15).fill(409)]);
      const made = (await results.find((r) => r.status === 201)!.json()) as { id: number };
      for (const refused of results.filter((r) => r.status === 409)) {
        expect(await errorOf(refused)).toEqual({
          code: "AmendmentStateChanged",
          message: `Error [AmendmentStateChanged]: amendment #${id} is superseded; re-proposing it needs it pending, evaluated, awaiting-approval or rejected`,
        });
      }
      expect(await amendmentCount()).toBe(before + 1);
      expect([(await row(id)).status, (await row(id)).supersededBy, (await row(made.id)).reproposedFrom]).toEqual([
        "superseded",
        made.id,
        id,
      ]);
    }
  });

  it("an evaluation that finishes after the skill moved on neither goes live nor waits for approval", async () => {
    const id = await amend({ body: ASK_FOR_REVIEW }, "nobody reviewed");
    await edit({ body: RELEASE_BRANCH });
    for (const autoPromote of [false, true]) {
      expect((await t.call("PATCH", "/api/v1/settings", { json: { autoPromote } })).status).toBe(200);
      expect(await evaluate(id)).toMatchObject({
        verdict: "improved",
        promotedVersion: null,
        promotionNote: `not promoted: amendment #${id} was written against v1 of "merged", which is at v2 now; re-propose it against v2`,
      });
      expect([(await row(id)).status, await currentVersion()]).toEqual(["evaluated", 2]);
    }
  });

  it("refuses a lead's override of an out-of-date amendment, and a re-proposal of one that is current or being decided", async () => {
    const current = await amend({ body: ASK_FOR_REVIEW }, "nobody reviewed");
    const notOutdated = await repropose(current);
    expect([notOutdated.status, await errorOf(notOutdated)]).toEqual([
      409,
      {
        code: "NotOutdated",
        message: `Error [NotOutdated]: amendment #${current} is written against v1, the latest version of "merged": there is nothing to re-propose it against`,
      },
    ]);
    await edit({ body: RELEASE_BRANCH });
    const override = await t.call("POST", `/api/v1/amendments/${current}/promote`, { json: { reason: "ship it" } });
    expect([override.status, (await errorOf(override)).message]).toEqual([
      409,
      `Error [AmendmentOutdated]: amendment #${current} was written against v1 of "merged", which is at v2 now; re-propose it against v2`,
    ]);
    expect([await currentVersion(), (await row(current)).status]).toEqual([2, "pending"]);
    // A lead rejects an amendment that is out of date: decided, it is no longer marked so.
    await t.app.db.update(amendments).set({ status: "awaiting-approval" }).where(eq(amendments.id, current));
    expect((await t.call("POST", `/api/v1/amendments/${current}/reject`, { json: { reason: "too late" } })).status).toBe(200);
    const [rejected] = (await listed()).filter((a) => a.id === current);
    expect([rejected!.status, rejected!.outdated, rejected!.base, rejected!.current]).toEqual(["rejected", false, 1, 2]);
    await t.app.db.update(amendments).set({ status: "promoted" }).where(eq(amendments.id, current));
    const decided = await repropose(current);
    expect([decided.status, (await errorOf(decided)).message]).toEqual([
      409,
      `Error [AmendmentStateChanged]: amendment #${current} is promoted; re-proposing it needs it pending, evaluated, awaiting-approval or rejected`,
    ]);
    expect((await repropose(999_999)).status).toBe(404);
    const badBody = await repropose(current, { regenerate: "yes" });
    expect([badBody.status, (await errorOf(badBody)).code]).toEqual([400, "InvalidField"]);
  });
});

describe("re-proposing without a model", () => {
  it("merges as ever, and answers 503 NoModel when asked to regenerate", async () => {
    const t = await startTestApp("pglite");
    try {
      await t.call("POST", "/api/v1/skills", { json: { name: SKILL, description: DESCRIPTION, body: V1, status: "active" } });
      const res = await t.call("POST", `/api/v1/skills/${SKILL}/amendments`, { json: { body: FEATURE_BRANCH, rationale: "features" } });
      const { id } = (await res.json()) as { id: number };
      expect((await t.call("PUT", `/api/v1/skills/${SKILL}`, { json: { body: RELEASE_BRANCH, expectedVersion: 1 } })).status).toBe(200);
      const refused = await t.call("POST", `/api/v1/amendments/${id}/repropose`, { json: { regenerate: true } });
      expect([refused.status, await errorOf(refused)]).toEqual([
        503,
        { code: "NoModel", message: "Error [NoModel]: set SKILLGATE_MODEL to evaluate amendments" },
      ]);
      expect((await t.call("GET", `/api/v1/skills/${SKILL}/amendments`).then((r) => r.json())).amendments).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
