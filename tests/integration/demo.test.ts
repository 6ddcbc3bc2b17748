import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  amendments,
  apiKeys,
  evalRuns,
  evaluations,
  learnedSkills,
  learnedSkillVersions,
  observations,
  skillEvents,
  skillViews,
  users,
} from "@/db/schema";
import { listAmendments } from "@/lib/evolution/amendments";
import { seedDemo, DEMO_TEAM } from "@/lib/demo/seed";
import { findTeam } from "@/lib/teams/teams";
import { versionEvidence } from "@/lib/skills/version-evidence";
import { compareFailureRates, noSkillProduction, versionProduction } from "@/lib/usage/production";
import { usageReport } from "@/lib/usage/usage";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

const DAY = 24 * 60 * 60 * 1000;

/**
 * The demo tells one story (issue 13, defect 3): every page reads the same rows, so the rows must
 * agree on who did what, when, and which version was served at the time.
 */
describe.each(testDbKinds)("the demo team's story on %s", (kind) => {
  const t = useTestApp(kind);

  it("dates each version, event and evaluation to one moment, by the same author, with views and runs of the version served then", async () => {
    expect(await seedDemo(t.app)).toBe(true);
    const team = (await findTeam(t.app.db, DEMO_TEAM))!;
    const db = t.app.db;
    const versions = await db
      .select({
        skill: learnedSkills.name,
        version: learnedSkillVersions.version,
        createdAt: learnedSkillVersions.createdAt,
        userEmail: users.email,
        keyName: apiKeys.name,
        session: learnedSkillVersions.authorSession,
        reason: learnedSkillVersions.reason,
        evaluationId: learnedSkillVersions.evaluationId,
      })
      .from(learnedSkillVersions)
      .innerJoin(learnedSkills, eq(learnedSkills.id, learnedSkillVersions.skillId))
      .leftJoin(users, eq(users.id, learnedSkillVersions.authorUserId))
      .leftJoin(apiKeys, eq(apiKeys.id, learnedSkillVersions.authorKeyId))
      .where(eq(learnedSkills.teamId, team.id))
      .orderBy(asc(learnedSkills.name), asc(learnedSkillVersions.version));
    const daysAgo = (at: Date) => Math.round(((Date.now() - at.getTime()) / DAY) * 10) / 10;
    expect(
      versions.map((v) => [
        v.skill,
        v.version,
        daysAgo(v.createdAt),
        v.userEmail ?? (v.keyName ? `${v.keyName} · ${v.session}` : "Skillgate"),
      ]),
    ).toEqual([
      ["flaky-test-triage", 1, 22, "sam@example.com"],
      ["flaky-test-triage", 2, 3.6, "sam@example.com"],
      ["flaky-test-triage", 3, 3.4, "demo@skillgate.local"],
      ["release-checklist", 1, 27, "sam's claude-code · 7f3a-release"],
      ["release-checklist", 2, 1.7, "Skillgate"],
      ["triage-notes", 1, 2, "sam's claude-code · 91bc-triage"],
    ]);

    // Each event that made a version happened when the version was made, by whoever made it.
    const events = await db
      .select({
        skill: skillEvents.skillName,
        kind: skillEvents.kind,
        version: skillEvents.version,
        at: skillEvents.at,
        email: users.email,
        keyName: apiKeys.name,
      })
      .from(skillEvents)
      .leftJoin(users, eq(users.id, skillEvents.actorUserId))
      .leftJoin(apiKeys, eq(apiKeys.id, skillEvents.actorKeyId))
      .where(eq(skillEvents.teamId, team.id))
      .orderBy(asc(skillEvents.at), asc(skillEvents.id));
    expect(events.map((e) => [daysAgo(e.at), e.kind, e.skill, e.version, e.email ?? e.keyName ?? "Skillgate"])).toEqual([
      [27, "created", "release-checklist", 1, "sam's claude-code"],
      [26, "promoted", "release-checklist", 1, "demo@skillgate.local"],
      [22, "created", "flaky-test-triage", 1, "sam@example.com"],
      [4.6, "amended", "flaky-test-triage", 1, "ci-runner"],
      [4.5, "evaluated", "flaky-test-triage", 1, "demo@skillgate.local"],
      [3.6, "edited", "flaky-test-triage", 2, "sam@example.com"],
      [3.4, "rolled-back", "flaky-test-triage", 3, "demo@skillgate.local"],
      [2, "created", "triage-notes", 1, "sam's claude-code"],
      [1.8, "amended", "release-checklist", 1, "sam's claude-code"],
      [1.7, "evaluated", "release-checklist", 1, "demo@skillgate.local"],
      [1.7, "promoted", "release-checklist", 2, "Skillgate"],
      [1.2, "verified", "release-checklist", 2, "demo@skillgate.local"],
      [0.8, "amended", "flaky-test-triage", 3, "ci-runner"],
      [0.7, "evaluated", "flaky-test-triage", 3, "sam@example.com"],
    ]);
    const made = events.filter(
      (e) => e.kind !== "amended" && e.kind !== "evaluated" && e.kind !== "verified" && !(e.kind === "promoted" && e.version === 1),
    );
    for (const event of made) {
      const version = versions.find((v) => v.skill === event.skill && v.version === event.version)!;
      expect(event.at.getTime(), `${event.kind} ${event.skill} v${event.version}`).toBe(version.createdAt.getTime());
    }
    // Provenance: the skill was created when its first version was.
    for (const skill of await db.select().from(learnedSkills).where(eq(learnedSkills.teamId, team.id))) {
      const first = versions.find((v) => v.skill === skill.name && v.version === 1)!;
      expect(skill.createdAt.getTime(), skill.name).toBe(first.createdAt.getTime());
    }
    // The promoted version links the evaluation that earned it, which finished when it went live.
    const release2 = versions.find((v) => v.skill === "release-checklist" && v.version === 2)!;
    const [evaluation] = await db.select().from(evaluations).where(eq(evaluations.id, release2.evaluationId!));
    expect([evaluation!.verdict, evaluation!.promotedVersion, evaluation!.finishedAt!.getTime()]).toEqual([
      "improved",
      2,
      release2.createdAt.getTime(),
    ]);
    const [amendment] = await db.select().from(amendments).where(eq(amendments.id, evaluation!.amendmentId));
    expect([amendment!.status, daysAgo(amendment!.createdAt)]).toEqual(["promoted", 1.8]);
    // With auto-promotion turned off since, the seed amendment was judged improved and waits for the lead.
    const queue = await listAmendments(t.app, team, { status: "awaiting-approval" });
    expect(
      queue.map((a) => [a.skill, a.base, a.outdated, a.verdict, daysAgo(new Date(a.createdAt)), daysAgo(new Date(a.evaluatedAt!))]),
    ).toEqual([["flaky-test-triage", 3, false, "improved", 0.8, 0.7]]);
    expect(queue[0]!.delta).toBeCloseTo(0.133, 3);
    expect((await findTeam(db, DEMO_TEAM))!.autoPromote).toBe(false);

    // Views and recorded runs name the version served at their time, and none predates its skill.
    const servedAt = (skill: string, at: Date) =>
      versions.filter((v) => v.skill === skill && v.createdAt <= at).reduce((latest, v) => Math.max(latest, v.version), 0);
    const learnedNames = new Set(versions.map((v) => v.skill));
    const viewed = await db.select().from(skillViews).where(eq(skillViews.teamId, team.id));
    const runs = await db.select().from(observations).where(eq(observations.teamId, team.id));
    for (const row of [...viewed.map((v) => ({ ...v, at: v.viewedAt })), ...runs.map((r) => ({ ...r, at: r.createdAt }))]) {
      if (!learnedNames.has(row.skillName)) continue;
      expect(row.version, `${row.skillName} at ${row.at.toISOString()}`).toBe(servedAt(row.skillName, row.at));
    }
    expect(
      runs
        .filter((r) => r.skillName === "release-checklist")
        .map((r) => r.version)
        .sort(),
    ).toEqual([1, 1, 1, 1, 1, 1, 2]);
    expect(viewed.filter((v) => v.skillName === "release-checklist" && v.version === 2).length).toBe(1);

    // Activation runs recorded the versions they listed: changelog-writer v1 before its rewrite, v2 after.
    const activation = await db
      .select()
      .from(evalRuns)
      .where(and(eq(evalRuns.teamId, team.id)))
      .orderBy(asc(evalRuns.createdAt));
    expect(
      activation.map((run) => [daysAgo(run.createdAt), run.skillVersions?.["changelog-writer"], run.skillVersions?.["flaky-test-triage"]]),
    ).toEqual([
      [6, 1, 1],
      [1, 2, 3],
    ]);

    // So the skill page can say what each version did: loads, recorded runs, and activation recall.
    expect(
      [...(await versionEvidence(db, team.id, { name: "release-checklist", source: "learned" })).values()].sort(
        (a, b) => a.version - b.version,
      ),
    ).toEqual([
      { version: 1, views: 3, runs: { total: 6, succeeded: 3 }, recall: { expected: 2, loaded: 1 } },
      { version: 2, views: 1, runs: { total: 1, succeeded: 1 }, recall: { expected: 2, loaded: 1 } },
    ]);

    // Is it helping? (issue 40): the month's prompts did work, so the overview flags a skill loaded,
    // then failing, and one costly, and changelog-writer's rewrite shows in its figures per version.
    const usage = await usageReport(t.app, team);
    expect(
      usage.skills
        .filter((skill) => skill.loadedThenFailing)
        .map((skill) => skill.name)
        .sort(),
    ).toEqual(["changelog-writer", "db-migration-review"]);
    expect(usage.skills.filter((skill) => skill.costly).map((skill) => skill.name)).toEqual(["systematic-debugging"]);
    expect(usage.production.noSkill).toMatchObject({ prompts: 540, toolCalls: 1620, toolFailures: 45, rejections: 0 });
    const changelog = await versionProduction(db, team.id, "changelog-writer");
    expect(changelog.map((v) => [v.version, v.production.prompts, v.production.toolCalls, v.production.toolFailures])).toEqual([
      [1, 12, 48, 2],
      [2, 6, 36, 12],
    ]);
    expect(compareFailureRates(changelog[1]!.production, changelog[0]!.production)).toBe("higher");
    expect(compareFailureRates(changelog[0]!.production, await noSkillProduction(db, team.id))).toBe("no clear difference");
    // Its failures are observations from production telemetry, of the version live at the time.
    const fromTelemetry = runs.filter((r) => r.source === "telemetry" && r.skillName === "changelog-writer");
    expect(fromTelemetry.map((r) => r.version).sort()).toEqual([1, 1, 2, 2, 2, 2, 2, 2]);
  });
});
