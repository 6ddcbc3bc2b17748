import { NO_PRODUCTION_ENTRY } from "../helpers/telemetry";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { coLoadedDays, observations, observationTotals, sessionLoads, skillViewDays, skillViews, skillViewTotals } from "@/db/schema";
import { daysBefore, writeViews } from "@/lib/usage/rollups";
import { RecentPairs, RECENT_PAIRS_MS } from "@/lib/usage/recent-pairs";
import type { SkillView } from "@/lib/usage/rollups";
import { anotherInstance, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { rollupBackfillStatements } from "../helpers/migration-sql";

const DAY = 86_400_000;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

const SKILLS = ["systematic-debugging", "test-driven-development", "writing-plans", "scientific-method", "finishing-a-branch"];

describe.each(testDbKinds)("usage rollups, on %s", (kind) => {
  const t = useTestApp(kind);

  const view = (skillName: string, sessionId: string | null, viewedAt: Date, teamId = t.alpha.team.id): SkillView => ({
    teamId,
    skillName,
    source: "builtin",
    version: 1,
    keyId: null,
    sessionId,
    viewedAt,
  });

  it("answers GET /api/v1/usage exactly as counting every view would, for views written in many batches", async () => {
    const next = random(42);
    const now = new Date();
    const views: SkillView[] = [];
    for (let i = 0; i < 600; i++) {
      const session = next() < 0.1 ? null : `s${Math.floor(next() * 40)}`;
      views.push(view(SKILLS[Math.floor(next() * SKILLS.length)]!, session, new Date(now.getTime() - next() * 45 * DAY)));
    }
    // Views arrive as they happen, in batches of uneven size (one per flush), each batch in any order.
    views.sort((x, y) => x.viewedAt.getTime() - y.viewedAt.getTime());
    for (let i = 0; i < views.length;) {
      const size = 1 + Math.floor(next() * 60);
      await writeViews(t.app.db, views.slice(i, i + size).reverse());
      i += size;
    }

    const inDays = (v: SkillView, days: number) => v.viewedAt.toISOString().slice(0, 10) >= daysBefore(now, days - 1);
    const firstLoads = new Map<string, SkillView>();
    for (const v of views) {
      if (!v.sessionId) continue;
      const key = `${v.sessionId}|${v.skillName}`;
      const seen = firstLoads.get(key);
      if (!seen || v.viewedAt < seen.viewedAt) firstLoads.set(key, v);
    }
    const expectedSkills = SKILLS.map((name) => {
      const of = views.filter((v) => v.skillName === name);
      return {
        name,
        views7d: of.filter((v) => inDays(v, 7)).length,
        views30d: of.filter((v) => inDays(v, 30)).length,
        lastViewedAt: new Date(Math.max(...of.map((v) => v.viewedAt.getTime()))).toISOString(),
        sessions: [...firstLoads.values()].filter((v) => v.skillName === name && inDays(v, 30)).length,
        // No telemetry was sent: views alone (docs/telemetry.md#activations's activations are tested in production-usage.test.ts).
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      };
    }).sort((x, y) => y.views30d - x.views30d || (x.name < y.name ? -1 : 1));
    const expectedPairs: { a: string; b: string; sessions: number }[] = [];
    for (const [i, a] of SKILLS.toSorted().entries()) {
      for (const b of SKILLS.toSorted().slice(i + 1)) {
        let sessions = 0;
        for (const s of new Set([...firstLoads.values()].map((v) => v.sessionId))) {
          const [x, y] = [firstLoads.get(`${s}|${a}`), firstLoads.get(`${s}|${b}`)];
          if (x && y && inDays(x.viewedAt > y.viewedAt ? x : y, 30)) sessions += 1;
        }
        if (sessions >= 2) expectedPairs.push({ a, b, sessions });
      }
    }

    const usage = await (await t.call("GET", "/api/v1/usage")).json();
    expect(usage.skills).toEqual(expectedSkills);
    expect(usage.neverLoaded).toEqual(["experiment-driven-development", "verification-before-completion"]);
    const pairs = usage.coLoaded.map(({ a, b, sessions }: { a: string; b: string; sessions: number }) => ({ a, b, sessions }));
    expect(pairs.toSorted((x: { a: string; b: string }, y: { a: string; b: string }) => (x.a + x.b < y.a + y.b ? -1 : 1))).toEqual(
      expectedPairs,
    );
    expect(expectedPairs.length).toBeGreaterThan(5);
    expect((await t.app.db.select().from(skillViews)).length).toBe(600);
  });

  it("counts a pair once when two instances write its two loads at the same moment", async () => {
    const other = anotherInstance(t.app);
    const now = new Date();
    // Sixty transactions at once: each session's two loads written by the two instances together.
    await Promise.all(
      [...Array(30)].map((_, s) =>
        Promise.all([
          writeViews(t.app.db, [view("writing-plans", `pair-${s}`, now)]),
          writeViews(other.db, [view("scientific-method", `pair-${s}`, now)]),
        ]),
      ),
    );
    expect(
      await t.app.db.select({ a: coLoadedDays.skillA, b: coLoadedDays.skillB, sessions: coLoadedDays.sessions }).from(coLoadedDays),
    ).toEqual([{ a: "scientific-method", b: "writing-plans", sessions: 30 }]);
    const days = await t.app.db
      .select({ skill: skillViewDays.skillName, views: skillViewDays.views, sessions: skillViewDays.sessions })
      .from(skillViewDays);
    expect(days.toSorted((x, y) => (x.skill < y.skill ? -1 : 1))).toEqual([
      { skill: "scientific-method", views: 30, sessions: 30 },
      { skill: "writing-plans", views: 30, sessions: 30 },
    ]);
    expect((await t.app.db.select().from(sessionLoads)).length).toBe(60);
    await other.close();
  });

  it("keeps a team's rollups to the team: the same session id in two teams makes no pair", async () => {
    const now = new Date();
    await writeViews(t.app.db, [view("writing-plans", "shared", now), view("scientific-method", "shared", now, t.beta.team.id)]);
    expect(await t.app.db.select().from(coLoadedDays)).toEqual([]);
    const beta = await (await t.call("GET", "/api/v1/usage", { key: t.beta.key })).json();
    expect(beta.skills.map((s: { name: string; sessions: number }) => [s.name, s.sessions])).toEqual([["scientific-method", 1]]);
  });

  it("writes observations with their per-version totals, also when ten requests record at once", async () => {
    const record = (outcome: string) =>
      t.call("POST", "/api/v1/observations", {
        json: { observations: [{ skill: "writing-plans", task: "plan", category: "planning", outcome }] },
      });
    const responses = await Promise.all([...Array(10)].map((_, i) => record(i % 3 === 0 ? "success" : "failure")));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await t.app.db.select({ runs: observationTotals.runs, successes: observationTotals.successes }).from(observationTotals)).toEqual(
      [{ runs: 10, successes: 4 }],
    );
    expect((await t.app.db.select().from(observations)).length).toBe(10);
  });

  it("migrates history recorded before the rollups into the same rollups as writing it live", async () => {
    const now = new Date();
    const next = random(7);
    const views = [...Array(200)].map(() =>
      view(
        SKILLS[Math.floor(next() * 3)] as string,
        next() < 0.2 ? null : `m${Math.floor(next() * 15)}`,
        new Date(now.getTime() - next() * 40 * DAY),
      ),
    );
    await writeViews(t.app.db, views);
    await t.call("POST", "/api/v1/observations", {
      json: {
        observations: ["success", "failure", "partial"].map((outcome) => ({ skill: "writing-plans", task: "t", category: "c", outcome })),
      },
    });
    const rollups = [sessionLoads, skillViewDays, skillViewTotals, coLoadedDays, observationTotals] as const;
    const read = () => Promise.all(rollups.map((table) => t.app.db.select().from(table)));
    const sorted = (tables: unknown[][]) => tables.map((rows) => rows.map((row) => JSON.stringify(row)).sort());
    const live = sorted(await read());

    for (const table of ["session_loads", "skill_view_days", "skill_view_totals", "co_loaded_days", "observation_totals"]) {
      await t.app.db.execute(sql.raw(`delete from ${table}`));
    }
    const backfill = rollupBackfillStatements();
    expect(backfill.length).toBe(5);
    for (const statement of backfill) await t.app.db.execute(sql.raw(statement));

    expect(sorted(await read())).toEqual(live);
    expect(live[3]!.length).toBeGreaterThan(0);
  });

  it("reuses a team's pairs loaded together for a minute on the activation page, and adds them up again after", async () => {
    let clock = 1_000_000;
    const now = new Date();
    const since = daysBefore(now, 29);
    const pairs = new RecentPairs(t.app.db, { now: () => clock });
    await writeViews(t.app.db, [view("writing-plans", "p1", now), view("scientific-method", "p1", now)]);
    await writeViews(t.app.db, [view("writing-plans", "p2", now), view("scientific-method", "p2", now)]);
    const first = await pairs.page(t.alpha.team.id, since, 1);
    expect(first.pairs).toEqual([{ a: "scientific-method", b: "writing-plans", sessions: 2, share: 1 }]);
    // A third session within the minute: the page shows the sum it made, the API the new one.
    await writeViews(t.app.db, [view("writing-plans", "p3", now), view("scientific-method", "p3", now)]);
    expect((await pairs.page(t.alpha.team.id, since, 1)).pairs[0]!.sessions).toBe(2);
    clock += RECENT_PAIRS_MS + 1;
    expect((await pairs.page(t.alpha.team.id, since, 1)).pairs[0]!.sessions).toBe(3);
    // Another team's pairs are its own.
    expect((await pairs.page(t.beta.team.id, since, 1)).pairs).toEqual([]);
  });
});
