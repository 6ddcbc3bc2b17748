import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { skillEvents } from "@/db/schema";
import { decisionEventCounts, teamEvaluations } from "@/lib/evolution/history";
import { decisionsByWeek } from "@/lib/evolution/promotion-decisions";
import { evaluationBars } from "@/lib/evolution/evaluation-outcomes";
import { approveAmendment, overrideAmendment, rejectAmendment } from "@/lib/evolution/promote";
import { getAmendment } from "@/lib/evolution/amendments";
import { promoteLearned, rollbackLearned } from "@/lib/learned/write";
import { SYSTEM } from "@/lib/learned/actor";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { judgeJson, mockJudge, taskOf } from "../helpers/judge";

/**
 * Issue 27: the history's charts count what really happened. Every kind of promotion decision is
 * made through the functions the API and the dashboard call, and the charts' figures are read back
 * from the events and evaluations they wrote.
 */

function judgeFor(prompt: string): string {
  if (taskOf(prompt).startsWith("same")) return judgeJson({ original: [0.6, 0.6, 0.6], amended: [0.6, 0.6, 0.6] }, "no difference");
  return judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.8, 0.7, 0.6] }, "clearer");
}

/** The Monday (UTC) of the week `date` is in, as the week buckets name it. */
function mondayOf(date: Date): string {
  const monday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - ((date.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

describe.each(testDbKinds)("the history's charts on %s", (kind) => {
  const t = useTestApp(kind, { model: mockJudge(judgeFor), judgeConcurrency: 2 });

  beforeEach(async () => {
    for (const [name, task, status] of [
      ["charted", "better: the charted task", "active"],
      ["flat", "same: the flat task", "active"],
      ["drafted", "better: the drafted task", "draft"],
    ]) {
      const created = await t.call("POST", "/api/v1/skills", {
        json: { name, description: `${name}. Use when charting.`, body: `# ${name}\n`, status },
      });
      expect(created.status).toBe(201);
      const observed = await t.call("POST", "/api/v1/observations", { json: { skill: name, task, category: "chart", outcome: "failure" } });
      expect(observed.status).toBe(201);
    }
  });

  const amendAndEvaluate = async (skill: string, body: string) => {
    const res = await t.call("POST", `/api/v1/skills/${skill}/amendments`, { json: { body, rationale: `try ${body}` } });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const evaluated = await t.call("POST", `/api/v1/amendments/${id}/evaluate`);
    expect(evaluated.status).toBe(200);
    return { id, evaluationId: ((await evaluated.json()) as { id: number }).id };
  };
  const setAutoPromote = async (autoPromote: boolean) =>
    expect((await t.call("PATCH", "/api/v1/settings", { json: { autoPromote } })).status).toBe(200);

  it("counts every kind of decision by week: auto-promoted, approved, overridden, draft promoted, rejected, not promoted, rolled back", async () => {
    const team = t.alpha.team;
    await promoteLearned(t.app, team.id, SYSTEM, "drafted");
    // The draft's promotion moved to a Sunday night, UTC: it belongs to the week that began the Monday before.
    await t.app.db
      .update(skillEvents)
      .set({ at: new Date("2026-11-01T23:30:00Z") })
      .where(and(eq(skillEvents.skillName, "drafted"), eq(skillEvents.kind, "promoted")));

    const auto = await amendAndEvaluate("charted", "# charted\n\nautomatic\n");
    const neutral = await amendAndEvaluate("flat", "# flat\n\nno better\n");
    await overrideAmendment(
      t.app,
      team,
      SYSTEM,
      await getAmendment(t.app.db, team.id, neutral.id),
      "the wording matters here",
      "evaluated",
    );

    await setAutoPromote(false);
    const approved = await amendAndEvaluate("charted", "# charted\n\napproved\n");
    const rejected = await amendAndEvaluate("charted", "# charted\n\nrejected\n");
    await approveAmendment(t.app, team, SYSTEM, approved.id);
    await rejectAmendment(t.app.db, team, SYSTEM, rejected.id, "too terse");
    const waiting = await amendAndEvaluate("charted", "# charted\n\nwaiting\n");
    const unchanged = await amendAndEvaluate("flat", "# flat\n\nstill no better\n");
    await rollbackLearned(t.app, team.id, SYSTEM, "charted", { toVersion: 1 });

    const none = { "auto-promoted": 0, approved: 0, overridden: 0, "draft-promoted": 0, rejected: 0, "not-promoted": 0, "rolled-back": 0 };
    expect(decisionsByWeek(await decisionEventCounts(t.app.db, team.id))).toEqual([
      { ...none, week: "2026-10-26", "draft-promoted": 1 },
      {
        ...none,
        week: mondayOf(new Date()),
        "auto-promoted": 1,
        approved: 1,
        overridden: 1,
        rejected: 1,
        "not-promoted": 2,
        "rolled-back": 1,
      },
    ]);
    // Another team's decisions are its own.
    expect(await decisionEventCounts(t.app.db, t.beta.team.id)).toEqual([]);

    const bars = evaluationBars(await teamEvaluations(t.app, team));
    expect(bars.map((bar) => [bar.id, bar.skill, bar.verdict, bar.outcome])).toEqual([
      [auto.evaluationId, "charted", "improved", "promoted"],
      [neutral.evaluationId, "flat", "neutral", "overridden"],
      [approved.evaluationId, "charted", "improved", "promoted"],
      [rejected.evaluationId, "charted", "improved", "rejected"],
      [waiting.evaluationId, "charted", "improved", "awaiting-approval"],
      [unchanged.evaluationId, "flat", "neutral", "not-promoted"],
    ]);
    expect(bars.map((bar) => bar.delta)).toEqual([0.2, 0, 0.2, 0.2, 0.2, 0]);
  });
});
