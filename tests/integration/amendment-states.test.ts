import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { amendments, evaluations, learnedSkills, skillEvents } from "@/db/schema";
import { decisionEventCounts } from "@/lib/evolution/history";
import { decisionsByWeek } from "@/lib/evolution/promotion-decisions";
import { overrideAmendment } from "@/lib/evolution/promote";
import { errorOf, useTestApp } from "../helpers/app";
import { migrationStatements } from "../helpers/migration-sql";
import { testDbKinds } from "../helpers/db";
import { judgeJson, mockJudge, taskOf } from "../helpers/judge";
import { waitFor } from "../helpers/wait";

/**
 * Issue 23: an amendment moves one way at a time (docs/evaluation-and-activation.md#amendment-states). Every move is raced by 16 requests at once,
 * over several rounds, and the database is read afterwards: exactly one move wins, the others are
 * told the state it is in, and nothing goes live after a rejection.
 */

const RACERS = 16;
const ROUNDS = 4;

/** Judge answers wait at this gate while a test holds it closed, so an evaluation cannot finish before its racers answer. */
let gate: Promise<void> = Promise.resolve();
let openGate: () => void = () => {};
function closeGate(): void {
  gate = new Promise((resolve) => (openGate = resolve));
}

async function judgeFor(prompt: string): Promise<string> {
  await gate;
  if (taskOf(prompt).startsWith("same")) return judgeJson({ original: [0.6, 0.6, 0.6], amended: [0.6, 0.6, 0.6] }, "no difference");
  return judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.8, 0.7, 0.6] }, "clearer");
}

describe.each(testDbKinds)("an amendment's moves on %s", (kind) => {
  const t = useTestApp(kind, { model: mockJudge(judgeFor), judgeConcurrency: 2 });

  beforeEach(async () => {
    gate = Promise.resolve();
    const res = await t.call("POST", "/api/v1/skills", {
      json: { name: "raced", description: "Raced. Use when racing.", body: "# raced\n", status: "active" },
    });
    expect(res.status).toBe(201);
    const observed = await t.call("POST", "/api/v1/observations", {
      json: { skill: "raced", task: "better: the raced task", category: "race", outcome: "failure" },
    });
    expect(observed.status).toBe(201);
  });

  const amend = async (body: string) => {
    const res = await t.call("POST", "/api/v1/skills/raced/amendments", { json: { body, rationale: `try ${body}` } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const evaluate = async (id: number) => {
    const res = await t.call("POST", `/api/v1/amendments/${id}/evaluate`);
    expect(res.status).toBe(200);
    return (await res.json()) as { id: number; verdict: string };
  };
  const stateOf = async (id: number) => (await t.app.db.select().from(amendments).where(eq(amendments.id, id)))[0]!;
  const currentVersion = async () =>
    (await t.app.db.select({ v: learnedSkills.currentVersion }).from(learnedSkills).where(eq(learnedSkills.name, "raced")))[0]!.v;
  const eventsOf = async (id: number) =>
    (await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "raced")).orderBy(skillEvents.id))
      .filter((event) => event.detail.amendmentId === id)
      .map((event) => event.kind);
  const statuses = (responses: Response[]) => responses.map((res) => res.status).sort((a, b) => a - b);
  const turnAutoPromotionOff = async () =>
    expect((await t.call("PATCH", "/api/v1/settings", { json: { autoPromote: false } })).status).toBe(200);

  it("approve and reject raced 8 against 8: exactly one decides, the rest are told the state, and nothing goes live after a rejection", async () => {
    await turnAutoPromotionOff();
    const winners: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const id = await amend(`# raced\n\nround ${round}\n`);
      await evaluate(id);
      expect((await stateOf(id)).status).toBe("awaiting-approval");
      const before = await currentVersion();
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          i % 2 === 0
            ? t.call("POST", `/api/v1/amendments/${id}/approve`)
            : t.call("POST", `/api/v1/amendments/${id}/reject`, { json: { reason: `no, round ${round}` } }),
        ),
      );
      expect(statuses(results)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      const after = await stateOf(id);
      const refusals = await Promise.all(results.filter((res) => res.status === 409).map(errorOf));
      const won = after.status === "promoted" ? "approve" : "reject";
      winners.push(won);
      for (const refusal of refusals) {
        expect(refusal.code).toBe("AmendmentStateChanged");
        expect(refusal.message).toMatch(
          new RegExp(
            `^Error \\[AmendmentStateChanged\\]: amendment #${id} is ${after.status}; (approving|rejecting) it needs it awaiting-approval$`,
          ),
        );
      }
      if (won === "approve") {
        expect(await currentVersion()).toBe(before + 1);
        expect(await eventsOf(id)).toEqual(["amended", "evaluated", "approved"]);
        expect(after.rejectedAt).toBeNull();
      } else {
        expect(after.status).toBe("rejected");
        expect(await currentVersion()).toBe(before);
        expect(await eventsOf(id)).toEqual(["amended", "evaluated", "rejected"]);
        expect(after.rejectionReason).toBe(`no, round ${round}`);
        expect(after.decisionReason).toBe(`no, round ${round}`);
      }
    }
    expect(winners).toHaveLength(ROUNDS);
  });

  it("promote raced 16 times on an amendment awaiting approval approves it once (promoting one awaiting approval is its approval)", async () => {
    await turnAutoPromotionOff();
    for (let round = 1; round <= ROUNDS; round++) {
      const id = await amend(`# raced\n\napproved by promote ${round}\n`);
      await evaluate(id);
      const before = await currentVersion();
      const results = await Promise.all(
        Array.from({ length: RACERS }, () => t.call("POST", `/api/v1/amendments/${id}/promote`, { json: {} })),
      );
      expect(statuses(results)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      expect(await results.find((res) => res.status === 200)!.json()).toMatchObject({ version: before + 1, override: false });
      // A loser that read the amendment before the winner moved it lost the approval; one that read it after finds it promoted.
      const moves = new Set<string>();
      for (const res of results.filter((r) => r.status === 409)) {
        const { code, message } = await errorOf(res);
        expect(code).toBe("AmendmentStateChanged");
        moves.add(message);
      }
      for (const message of moves) {
        expect([
          `Error [AmendmentStateChanged]: amendment #${id} is promoted; approving it needs it awaiting-approval`,
          `Error [AmendmentStateChanged]: amendment #${id} is promoted; promoting it needs it pending, evaluated or rejected`,
        ]).toContain(message);
      }
      expect(await eventsOf(id)).toEqual(["amended", "evaluated", "approved"]);
      expect((await stateOf(id)).decision).toBe("approved");
    }
  });

  it("evaluate raced 16 times starts one evaluation; the others are told it is evaluating", async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const id = await amend(`# raced\n\nevaluated ${round}\n`);
      closeGate();
      const racing = Array.from({ length: RACERS }, () => t.call("POST", `/api/v1/amendments/${id}/evaluate`));
      // The winner waits at the gate; the fifteen others must answer while it is closed.
      const answered: Response[] = [];
      await new Promise<void>((resolve) => {
        for (const request of racing) {
          void request.then((res) => {
            answered.push(res);
            if (answered.length === RACERS - 1) resolve();
          });
        }
      });
      for (const res of answered) {
        expect([res.status, await errorOf(res)]).toEqual([
          409,
          {
            code: "AmendmentStateChanged",
            message: `Error [AmendmentStateChanged]: amendment #${id} is evaluating; evaluating it needs it pending or evaluated`,
          },
        ]);
      }
      openGate();
      const all = await Promise.all(racing);
      expect(statuses(all)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      const rows = await t.app.db.select().from(evaluations).where(eq(evaluations.amendmentId, id));
      expect(rows.map((row) => row.status)).toEqual(["finished"]);
      expect(await eventsOf(id)).toEqual(["amended", "evaluated", "promoted"]);
      expect((await stateOf(id)).status).toBe("promoted");
    }
  });

  it("an override raced 16 times puts the amendment live once, as one overridden version", async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const id = await amend(`# raced\n\noverridden ${round}\n`);
      const before = await currentVersion();
      const results = await Promise.all(
        Array.from({ length: RACERS }, () =>
          t.call("POST", `/api/v1/amendments/${id}/promote`, { json: { reason: `ship round ${round}` } }),
        ),
      );
      expect(statuses(results)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      const winner = results.find((res) => res.status === 200)!;
      expect(await winner.json()).toEqual({
        name: "raced",
        version: before + 1,
        evaluationId: null,
        override: true,
        served: { version: before + 1, why: "latest" },
      });
      for (const res of results.filter((r) => r.status === 409)) {
        expect(await errorOf(res)).toEqual({
          code: "AmendmentStateChanged",
          message: `Error [AmendmentStateChanged]: amendment #${id} is promoted; promoting it needs it pending, evaluated or rejected`,
        });
      }
      expect(await currentVersion()).toBe(before + 1);
      expect(await eventsOf(id)).toEqual(["amended", "overridden"]);
    }
  });

  it("promoting a rejected amendment is a lead's override with a reason; its rejection stays, and the chart counts it", async () => {
    await turnAutoPromotionOff();
    const id = await amend("# raced\n\nrejected first\n");
    await evaluate(id);
    const rejected = await t.call("POST", `/api/v1/amendments/${id}/reject`, { json: { reason: "too terse for new hires" } });
    expect(await rejected.json()).toEqual({ id, status: "rejected" });
    const [listed] = (await (await t.call("GET", `/api/v1/amendments?status=rejected`)).json()).amendments;
    expect(listed).toMatchObject({
      id,
      status: "rejected",
      verdict: "improved",
      decidedBy: "key test",
      reason: "too terse for new hires",
      rejection: { by: "key test", at: expect.any(String), reason: "too terse for new hires" },
    });

    const noReason = await t.call("POST", `/api/v1/amendments/${id}/promote`, { json: {} });
    expect([noReason.status, await errorOf(noReason)]).toEqual([
      400,
      {
        code: "ReasonRequired",
        message: `Error [ReasonRequired]: promoting amendment #${id}, which is rejected, is a manual override: it needs a written reason`,
      },
    ]);
    expect(await currentVersion()).toBe(1);
    const overridden = await t.call("POST", `/api/v1/amendments/${id}/promote`, { json: { reason: "new hires have the wiki now" } });
    expect(await overridden.json()).toMatchObject({ name: "raced", version: 2, override: true });

    const [after] = (await (await t.call("GET", `/api/v1/amendments?skill=raced`)).json()).amendments;
    expect(after).toMatchObject({
      status: "promoted",
      reason: "new hires have the wiki now",
      rejection: { by: "key test", reason: "too terse for new hires" },
    });
    expect(await eventsOf(id)).toEqual(["amended", "evaluated", "rejected", "overridden"]);
    const [event] = await t.app.db
      .select()
      .from(skillEvents)
      .where(and(eq(skillEvents.kind, "overridden"), eq(skillEvents.skillName, "raced")));
    expect(event!.detail).toMatchObject({ overrideReason: "new hires have the wiki now", verdict: "improved", wasState: "rejected" });
    const weeks = decisionsByWeek(await decisionEventCounts(t.app.db, t.alpha.team.id));
    expect(weeks.map((week) => [week["auto-promoted"], week.approved, week.rejected, week.overridden])).toEqual([[0, 0, 1, 1]]);
  });

  it("lists a lead's queue: by state and skill, newest first, page by page; a state that does not exist is a 400", async () => {
    await turnAutoPromotionOff();
    const waiting = [await amend("# raced\n\nfirst\n"), await amend("# raced\n\nsecond\n")];
    for (const id of waiting) await evaluate(id);
    const pending = await amend("# raced\n\nnot yet\n");
    const queue = await (await t.call("GET", "/api/v1/amendments?status=awaiting-approval")).json();
    expect(queue.amendments.map((a: { id: number; status: string }) => [a.id, a.status])).toEqual([
      [waiting[1], "awaiting-approval"],
      [waiting[0], "awaiting-approval"],
    ]);
    expect(queue.amendments[0]).toMatchObject({
      skill: "raced",
      verdict: "improved",
      delta: expect.any(Number),
      evaluatedAt: expect.any(String),
      decidedBy: null,
      reason: null,
      rejection: null,
      author: "key test",
      outdated: false,
      base: 1,
      current: 1,
      reproposedFrom: null,
      supersededBy: null,
    });
    expect(queue.nextCursor).toBeNull();
    const first = await (await t.call("GET", "/api/v1/amendments?limit=2")).json();
    expect(first.amendments.map((a: { id: number }) => a.id)).toEqual([pending, waiting[1]]);
    const second = await (await t.call("GET", `/api/v1/amendments?limit=2&cursor=${first.nextCursor}`)).json();
    expect([second.amendments.map((a: { id: number }) => a.id), second.nextCursor]).toEqual([[waiting[0]], null]);
    expect((await (await t.call("GET", "/api/v1/amendments?skill=other-skill")).json()).amendments).toEqual([]);
    const wrong = await t.call("GET", "/api/v1/amendments?status=approved");
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).code).toBe("InvalidQuery");
    const badSkill = await t.call("GET", "/api/v1/amendments?skill=..%2Fx");
    expect([badSkill.status, await errorOf(badSkill)]).toEqual([
      400,
      { code: "InvalidQuery", message: 'field "skill": is not a skill name (lowercase letters, digits, single hyphens)' },
    ]);
    expect((await (await t.call("GET", "/api/v1/amendments", { key: t.beta.key })).json()).amendments).toEqual([]);
  });

  it("finishes an evaluation in one transaction: a failure half way leaves no verdict, no event, no version, and the amendment pending", async () => {
    const id = await amend("# raced\n\nhalf way\n");
    // The `evaluated` event cannot be written: everything finishing writes before it must go too.
    await t.app.db.execute(sql`create function refuse_evaluated() returns trigger language plpgsql as $$
      begin if new.kind = 'evaluated' then raise exception 'refused for the test'; end if; return new; end $$`);
    await t.app.db.execute(
      sql`create trigger refuse_evaluated before insert on skill_events for each row execute function refuse_evaluated()`,
    );
    try {
      const res = await t.call("POST", `/api/v1/amendments/${id}/evaluate`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "failed", verdict: null, delta: null, promotedVersion: null });
    } finally {
      await t.app.db.execute(sql`drop trigger refuse_evaluated on skill_events`);
      await t.app.db.execute(sql`drop function refuse_evaluated`);
    }
    const [row] = await t.app.db.select().from(evaluations).where(eq(evaluations.amendmentId, id));
    expect([row!.status, row!.verdict, row!.improved, row!.promotedVersion]).toEqual(["failed", null, 0, null]);
    expect((await stateOf(id)).status).toBe("pending");
    expect(await eventsOf(id)).toEqual(["amended"]);
    expect(await currentVersion()).toBe(1);
    // Evaluated again, it goes through.
    expect(await evaluate(id)).toMatchObject({ verdict: "improved" });
    expect(await eventsOf(id)).toEqual(["amended", "evaluated", "promoted"]);
  });

  it("stores the verdict when the promotion it earned is refused (the skill moved on): the amendment is evaluated and says why", async () => {
    const id = await amend("# raced\n\nwritten against v1\n");
    expect(
      (await t.call("PUT", "/api/v1/skills/raced", { json: { body: "# raced\n\nedited meanwhile\n", expectedVersion: 1 } })).status,
    ).toBe(200);
    const report = await evaluate(id);
    expect(report).toMatchObject({
      verdict: "improved",
      promotedVersion: null,
      promotionNote: `not promoted: amendment #${id} was written against v1 of "raced", which is at v2 now; re-propose it against v2`,
    });
    expect([(await stateOf(id)).status, await currentVersion(), await eventsOf(id)]).toEqual(["evaluated", 2, ["amended", "evaluated"]]);
  });

  it("writes an amendment proposed under a pin against the latest version, so it can go live once judged", async () => {
    expect((await t.call("PUT", "/api/v1/skills/raced", { json: { body: "# raced\n\nsecond\n", expectedVersion: 1 } })).status).toBe(200);
    expect((await t.call("POST", "/api/v1/skills/raced/pin", { json: { version: 1 } })).status).toBe(200);
    const id = await amend("# raced\n\nsecond, and a third step\n");
    const [entry] = (await (await t.call("GET", "/api/v1/skills/raced/amendments")).json()).amendments;
    expect([entry.id, entry.base, entry.current, entry.outdated]).toEqual([id, 2, 2, false]);
    expect(await evaluate(id)).toMatchObject({ verdict: "improved", promotedVersion: 3 });
    // Agents keep the pinned version; the amendment is the latest, waiting behind the pin.
    expect((await t.call("GET", "/api/v1/skills/raced")).headers.get("x-skill-version")).toBe("1");
    expect(await (await t.call("GET", "/api/v1/skills/raced?version=3")).text()).toBe(
      "[skill raced | learned | v3]\n# raced\n\nsecond, and a third step\n",
    );
  });

  /** Starts an evaluation whose judge waits at the gate; resolves once its row exists, with its answer to come (wrapped, or awaiting this would await the answer). */
  const evaluationHeldAtTheGate = async (id: number) => {
    closeGate();
    const answer = t.call("POST", `/api/v1/amendments/${id}/evaluate`);
    await waitFor(async () => (await t.app.db.$count(evaluations, eq(evaluations.amendmentId, id))) > 0, {
      what: `the evaluation of amendment #${id} to be stored`,
    });
    return { answer };
  };

  it("reads the team's auto-promotion when the verdict is stored: turned off while judging, the amendment waits for a lead", async () => {
    const id = await amend("# raced\n\njudged while the setting changed\n");
    const { answer } = await evaluationHeldAtTheGate(id);
    await turnAutoPromotionOff();
    openGate();
    expect(await (await answer).json()).toMatchObject({ verdict: "improved", promotedVersion: null });
    expect((await stateOf(id)).status).toBe("awaiting-approval");
    expect(await currentVersion()).toBe(1);
  });

  it("fails an evaluation whose amendment was moved under it (as older versions could), instead of taking it over again and again", async () => {
    const id = await amend("# raced\n\nmoved under its evaluation\n");
    const { answer } = await evaluationHeldAtTheGate(id);
    await t.app.db.update(amendments).set({ status: "rejected" }).where(eq(amendments.id, id));
    openGate();
    const report = await (await answer).json();
    expect([report.status, report.verdict, report.error]).toEqual([
      "failed",
      null,
      `amendment #${id} is rejected; finishing its evaluation needs it evaluating`,
    ]);
    expect((await stateOf(id)).status).toBe("rejected");
    expect(await eventsOf(id)).toEqual(["amended"]);
    expect(await t.app.db.$count(evaluations, and(eq(evaluations.amendmentId, id), eq(evaluations.status, "running")))).toBe(0);
  });

  it("overrides only the state the lead decided on: a form opened on an evaluated amendment does not approve it once it awaits approval", async () => {
    await turnAutoPromotionOff();
    const id = await amend("# raced\n\njudged again\n");
    await evaluate(id);
    const row = await stateOf(id);
    const lead = { kind: "person" as const, userId: 1, email: "lead@example.com", role: "lead" as const };
    await expect(overrideAmendment(t.app, t.alpha.team, lead, row, "ship it", "evaluated")).rejects.toThrow(
      `Error [AmendmentStateChanged]: amendment #${id} is awaiting-approval; promoting it needs it pending, evaluated or rejected`,
    );
    expect([(await stateOf(id)).status, await currentVersion(), await eventsOf(id)]).toEqual([
      "awaiting-approval",
      1,
      ["amended", "evaluated"],
    ]);
  });

  it("migrates what the history already held: decisions onto their amendments, and an amendment under evaluation to evaluating", async () => {
    await turnAutoPromotionOff();
    const approvedId = await amend("# raced\n\napproved\n");
    await evaluate(approvedId);
    expect((await t.call("POST", `/api/v1/amendments/${approvedId}/approve`)).status).toBe(200);
    const overriddenId = await amend("# raced\n\nrejected, then overridden\n");
    await evaluate(overriddenId);
    expect((await t.call("POST", `/api/v1/amendments/${overriddenId}/reject`, { json: { reason: "not yet" } })).status).toBe(200);
    expect((await t.call("POST", `/api/v1/amendments/${overriddenId}/promote`, { json: { reason: "now" } })).status).toBe(200);
    const runningId = await amend("# raced\n\nunder evaluation\n");
    const running = (amendmentId: number) =>
      t.app.db
        .insert(evaluations)
        .values({ teamId: t.alpha.team.id, amendmentId, skillName: "raced", status: "running", modelId: "m", promptVersion: "p" })
        .returning({ id: evaluations.id })
        .then(([row]) => row!.id);
    // Left by the old code: two evaluations of one amendment running at once, and one of an amendment decided meanwhile.
    const older = await running(runningId);
    const newer = await running(runningId);
    const ofDecided = await running(approvedId);
    const columns = (row: typeof amendments.$inferSelect) => [
      row.status,
      row.decision,
      row.decidedByKeyId,
      row.decisionReason,
      row.rejectedByKeyId,
      row.rejectionReason,
      row.rejectedAt !== null,
    ];
    const live = [await stateOf(approvedId), await stateOf(overriddenId)].map(columns);
    expect(live).toEqual([
      ["promoted", "approved", expect.any(Number), null, null, null, false],
      ["promoted", "overridden", expect.any(Number), "now", expect.any(Number), "not yet", true],
    ]);

    // As the database was before the migration: no decisions on amendments, and no "evaluating".
    await t.app.db.update(amendments).set({
      decision: null,
      decidedByUserId: null,
      decidedByKeyId: null,
      decidedSession: null,
      decidedAt: null,
      decisionReason: null,
      rejectedByUserId: null,
      rejectedByKeyId: null,
      rejectedSession: null,
      rejectedAt: null,
      rejectionReason: null,
    });
    await t.app.db.update(amendments).set({ status: "pending" }).where(eq(amendments.id, runningId));
    for (const statement of migrationStatements("0023_amendment_decisions_backfill.sql")) await t.app.db.execute(sql.raw(statement));

    expect([await stateOf(approvedId), await stateOf(overriddenId)].map(columns)).toEqual(live);
    const [rejectedEvent] = await t.app.db.select().from(skillEvents).where(eq(skillEvents.kind, "rejected"));
    expect((await stateOf(overriddenId)).rejectedAt?.getTime()).toBe(rejectedEvent!.at.getTime());
    expect((await stateOf(runningId)).status).toBe("evaluating");
    const statusOf = async (id: number) => (await t.app.db.select().from(evaluations).where(eq(evaluations.id, id)))[0]!.status;
    expect([await statusOf(older), await statusOf(newer), await statusOf(ofDecided)]).toEqual(["failed", "running", "failed"]);
  });
});
