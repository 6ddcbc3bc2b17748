import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerRecords, ledgers } from "@/db/schema";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

describe.each(testDbKinds)("the experiment ledger on %s", (kind) => {
  const t = useTestApp(kind);

  const act = (slug: string, body: Record<string, unknown>, key?: string) => t.call("POST", `/api/v1/ledger/${slug}`, { json: body, key });
  const record = async (slug: string, body: Record<string, unknown>) => {
    const res = await act(slug, body);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return (await res.json()).record as { id: string };
  };
  /** The cache-fix ledger as the first test writes it: H1–H2, P1–P3, O1, V1–V2, S1 and C1, nothing open. */
  const seedCacheFixLedger = async () => {
    await record("cache-fix", { action: "record-hypothesis", text: "Keys include the timestamp", skill: "systematic-debugging" });
    await record("cache-fix", { action: "record-hypothesis", text: "The TTL is too short" });
    await record("cache-fix", {
      action: "record-prediction",
      id: "H1",
      text: "Hit rate rises above 90%",
      falsifiedBy: "npm run bench -- cache | grep hit_rate",
    });
    await record("cache-fix", {
      action: "record-prediction",
      id: "H2",
      text: "Misses stop after 60 s",
      falsifiedBy: "grep miss log/cache.log",
    });
    await record("cache-fix", {
      action: "record-prediction",
      id: "H1",
      text: "Keys differ per request",
      falsifiedBy: "node scripts/keys.js",
    });
    await record("cache-fix", { action: "record-observation", text: "hit_rate 0.31 before\nmisses cluster at :00" });
    await record("cache-fix", { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "hit_rate 0.94" });
    await record("cache-fix", { action: "record-verdict", id: "P3", verdict: "inconclusive" });
    await record("cache-fix", { action: "record-skip", id: "P2", reason: "TTL was ruled out by P1" });
    await record("cache-fix", { action: "record-conclusion", text: "Dropping the timestamp fixed it" });
  };
  /** P4, a prediction on H2 left open: it closes the finishing gate. */
  const recordOpenPrediction = () =>
    record("cache-fix", { action: "record-prediction", id: "H2", text: "TTL of 300 s is enough", falsifiedBy: "npm test -- ttl" });
  const refuteOpenPrediction = () =>
    record("cache-fix", { action: "record-verdict", id: "P4", verdict: "refuted", evidence: "misses at 120 s" });

  it("gives ids in order per kind and answers with the record and the ledger key", async () => {
    const res = await act("cache-fix", { action: "record-hypothesis", text: "Keys include the timestamp", skill: "systematic-debugging" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      record: { id: "H1", kind: "hypothesis", text: "Keys include the timestamp", createdAt: expect.any(String) },
      ledger: "sci.cache-fix/ledger",
    });
    expect((await record("cache-fix", { action: "record-hypothesis", text: "The TTL is too short" })).id).toBe("H2");
    const p1 = await act("cache-fix", {
      action: "record-prediction",
      id: "H1",
      text: "Hit rate rises above 90%",
      falsifiedBy: "npm run bench -- cache | grep hit_rate",
    });
    expect((await p1.json()).record).toEqual({
      id: "P1",
      kind: "prediction",
      ref: "H1",
      text: "Hit rate rises above 90%",
      falsifiedBy: "npm run bench -- cache | grep hit_rate",
      createdAt: expect.any(String),
    });
    expect(
      (
        await record("cache-fix", {
          action: "record-prediction",
          id: "H2",
          text: "Misses stop after 60 s",
          falsifiedBy: "grep miss log/cache.log",
        })
      ).id,
    ).toBe("P2");
    expect(
      (
        await record("cache-fix", {
          action: "record-prediction",
          id: "H1",
          text: "Keys differ per request",
          falsifiedBy: "node scripts/keys.js",
        })
      ).id,
    ).toBe("P3");
    expect((await record("cache-fix", { action: "record-observation", text: "hit_rate 0.31 before\nmisses cluster at :00" })).id).toBe(
      "O1",
    );
    expect((await record("cache-fix", { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "hit_rate 0.94" })).id).toBe(
      "V1",
    );
    expect((await record("cache-fix", { action: "record-verdict", id: "P3", verdict: "inconclusive" })).id).toBe("V2");
    expect((await record("cache-fix", { action: "record-skip", id: "P2", reason: "TTL was ruled out by P1" })).id).toBe("S1");
    expect((await record("cache-fix", { action: "record-conclusion", text: "Dropping the timestamp fixed it" })).id).toBe("C1");
    expect((await record("other-plan", { action: "record-hypothesis", text: "A second plan counts from 1" })).id).toBe("H1");
  });

  it("lists every kind of record, one line each, with the exact header", async () => {
    await seedCacheFixLedger();
    await recordOpenPrediction();
    const expected = [
      "[experiment] sci.cache-fix/ledger: 11 record(s), 1 open prediction(s)",
      "H1 hypothesis: Keys include the timestamp",
      "H2 hypothesis: The TTL is too short",
      "P1 prediction (H1): Hit rate rises above 90% | falsifiedBy: npm run bench -- cache | grep hit_rate",
      "P2 prediction (H2): Misses stop after 60 s | falsifiedBy: grep miss log/cache.log",
      "P3 prediction (H1): Keys differ per request | falsifiedBy: node scripts/keys.js",
      "O1 observation: hit_rate 0.31 before\\nmisses cluster at :00",
      "V1 verdict (P1): confirmed | evidence: hit_rate 0.94",
      "V2 verdict (P3): inconclusive",
      "S1 skip (P2): skipped | reason: TTL was ruled out by P1",
      "C1 conclusion: Dropping the timestamp fixed it",
      "P4 prediction (H2): TTL of 300 s is enough | falsifiedBy: npm test -- ttl [open]",
    ].join("\n");
    const listed = await act("cache-fix", { action: "list" });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await listed.text()).toBe(expected);
    expect(await (await t.call("GET", "/api/v1/ledger/cache-fix")).text()).toBe(expected);
    expect(await (await t.call("GET", "/api/v1/ledger/never-used")).text()).toBe(
      "[experiment] sci.never-used/ledger: 0 record(s), 0 open prediction(s)",
    );
  });

  it("closes the finishing gate on an open prediction and opens it once the prediction is judged", async () => {
    await seedCacheFixLedger();
    await recordOpenPrediction();
    const closed = await t.call("GET", "/api/v1/ledger/cache-fix/gate");
    expect(closed.status).toBe(409);
    expect(await closed.json()).toEqual({
      error: {
        code: "OpenPredictions",
        message:
          "Error [OpenPredictions]: sci.cache-fix/ledger has 1 open prediction(s)\nP4 prediction (H2): TTL of 300 s is enough | falsifiedBy: npm test -- ttl [open]",
      },
      ledger: "sci.cache-fix/ledger",
      open: [{ id: "P4", text: "TTL of 300 s is enough", falsifiedBy: "npm test -- ttl", hypothesis: "H2" }],
    });
    await refuteOpenPrediction();
    const clear = await t.call("GET", "/api/v1/ledger/cache-fix/gate");
    expect(clear.status).toBe(200);
    expect(await clear.json()).toEqual({ ledger: "sci.cache-fix/ledger", open: [] });
  });

  it("refuses with every gate and message of docs/ledger.md#actions-and-gates, and writes nothing", async () => {
    await seedCacheFixLedger();
    await recordOpenPrediction();
    await refuteOpenPrediction();
    const before = await t.app.db.$count(ledgerRecords);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ action: "record-hypothesis" }, 400, "MissingField", "Error [MissingField]: record-hypothesis requires text"],
      [{ action: "record-hypothesis", text: "   \n" }, 400, "MissingField", "Error [MissingField]: record-hypothesis requires text"],
      [
        { action: "record-prediction", id: "H1", text: "x" },
        400,
        "MissingField",
        "Error [MissingField]: record-prediction requires falsifiedBy",
      ],
      [
        { action: "record-prediction", id: "H1", text: "x", falsifiedBy: " " },
        400,
        "MissingField",
        "Error [MissingField]: record-prediction requires falsifiedBy",
      ],
      [
        { action: "record-prediction", text: "x", falsifiedBy: "y" },
        400,
        "MissingField",
        "Error [MissingField]: record-prediction requires id",
      ],
      [
        { action: "record-prediction", id: "H9", text: "x", falsifiedBy: "y" },
        404,
        "UnknownHypothesis",
        "Error [UnknownHypothesis]: H9 is not a hypothesis of sci.cache-fix/ledger",
      ],
      [
        { action: "record-prediction", id: "P1", text: "x", falsifiedBy: "y" },
        404,
        "UnknownHypothesis",
        "Error [UnknownHypothesis]: P1 is not a hypothesis of sci.cache-fix/ledger",
      ],
      [
        { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "again" },
        409,
        "PredictionAlreadyJudged",
        "Error [PredictionAlreadyJudged]: P1 already has a verdict",
      ],
      [
        { action: "record-skip", id: "P1", reason: "late" },
        409,
        "PredictionAlreadyJudged",
        "Error [PredictionAlreadyJudged]: P1 already has a verdict",
      ],
      [
        { action: "record-verdict", id: "P2", verdict: "confirmed", evidence: "x" },
        409,
        "PredictionAlreadyJudged",
        "Error [PredictionAlreadyJudged]: P2 was skipped (S1)",
      ],
      [
        { action: "record-verdict", id: "P9", verdict: "confirmed", evidence: "x" },
        404,
        "UnknownPrediction",
        "Error [UnknownPrediction]: P9 is not a prediction of sci.cache-fix/ledger",
      ],
      [
        { action: "record-verdict", id: "P1", verdict: "confirmed" },
        400,
        "MissingField",
        "Error [MissingField]: record-verdict requires evidence",
      ],
      [
        { action: "record-verdict", id: "P1", verdict: "refuted", evidence: "  " },
        400,
        "MissingField",
        "Error [MissingField]: record-verdict requires evidence",
      ],
      [
        { action: "record-verdict", id: "P1", verdict: "maybe", evidence: "x" },
        400,
        "InvalidVerdict",
        'Error [InvalidVerdict]: verdict must be confirmed, refuted or inconclusive, not "maybe"',
      ],
      [{ action: "record-verdict", id: "P1" }, 400, "MissingField", "Error [MissingField]: record-verdict requires verdict"],
      [{ action: "record-skip", id: "P4" }, 400, "MissingField", "Error [MissingField]: record-skip requires reason"],
      [
        { action: "record-skip", id: "H1", reason: "x" },
        404,
        "UnknownPrediction",
        "Error [UnknownPrediction]: H1 is not a prediction of sci.cache-fix/ledger",
      ],
      [
        { action: "record-thought", text: "x" },
        400,
        "UnknownAction",
        'Error [UnknownAction]: "record-thought" is not an action; use one of record-hypothesis, record-prediction, record-verdict, record-observation, record-conclusion, record-skip, list',
      ],
      [
        { action: "record-hypothesis", text: "x", skill: "another-skill" },
        409,
        "SkillMismatch",
        "Error [SkillMismatch]: sci.cache-fix/ledger exercises systematic-debugging, not another-skill",
      ],
      [
        { action: "record-hypothesis", text: "x", skill: "Bad Skill" },
        400,
        "InvalidName",
        'invalid skill name: name "Bad Skill" may hold only lowercase letters, digits and hyphens',
      ],
      [{ action: "record-hypothesis", text: 5 }, 400, "InvalidField", 'field "text": Invalid input: expected string, received number'],
      [{ action: "record-hypothesis", text: "x", colour: "red" }, 400, "InvalidField", 'unknown field "colour"; remove it'],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await act("cache-fix", body);
      expect(res.status, message).toBe(status);
      expect(await errorOf(res)).toEqual({ code, message });
    }
    for (const slug of ["Bad_Slug", "x".repeat(81), "with.dot"]) {
      const res = await act(slug, { action: "record-hypothesis", text: "x" });
      expect(res.status, slug).toBe(400);
      expect((await errorOf(res)).code).toBe("InvalidSlug");
    }
    expect(await t.app.db.$count(ledgerRecords)).toBe(before);
    expect(await t.app.db.$count(ledgers, eq(ledgers.slug, "Bad_Slug"))).toBe(0);
  });

  it("takes exactly one of 16 simultaneous verdicts on one prediction", async () => {
    await record("race", { action: "record-hypothesis", text: "h" });
    await record("race", { action: "record-prediction", id: "H1", text: "p", falsifiedBy: "true" });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => act("race", { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: `run ${i}` })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(await errorOf(res)).toEqual({
        code: "PredictionAlreadyJudged",
        message: "Error [PredictionAlreadyJudged]: P1 already has a verdict",
      });
    }
    // The race's one verdict is the only verdict in the database.
    expect(await t.app.db.$count(ledgerRecords, eq(ledgerRecords.kind, "verdict"))).toBe(1);
  });

  it("refuses UPDATE, DELETE and TRUNCATE issued straight at the database", async () => {
    // The row triggers fire only on rows the statements touch: hypotheses and verdicts must exist.
    await seedCacheFixLedger();
    for (const statement of [
      sql`update ledger_records set text = 'rewritten' where kind = 'hypothesis'`,
      sql`delete from ledger_records where kind = 'verdict'`,
      sql`truncate ledger_records`,
    ]) {
      await expect(t.app.db.execute(statement)).rejects.toThrow();
    }
    const [h1] = await t.app.db.select().from(ledgerRecords).where(eq(ledgerRecords.kind, "hypothesis")).limit(1);
    expect(h1!.text).toBe("Keys include the timestamp");
  });

  it("keeps one team's ledgers from another", async () => {
    await seedCacheFixLedger();
    const beta = { key: t.beta.key };
    expect(await (await t.call("GET", "/api/v1/ledger/cache-fix", beta)).text()).toBe(
      "[experiment] sci.cache-fix/ledger: 0 record(s), 0 open prediction(s)",
    );
    const res = await t.call("POST", "/api/v1/ledger/cache-fix", {
      ...beta,
      json: { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "x" },
    });
    expect(await errorOf(res)).toEqual({
      code: "UnknownPrediction",
      message: "Error [UnknownPrediction]: P1 is not a prediction of sci.cache-fix/ledger",
    });
    expect((await t.call("GET", "/api/v1/ledger/cache-fix/gate", beta)).status).toBe(200);
    expect((await (await t.call("GET", "/api/v1/ledger", beta)).json()).ledgers).toEqual([]);
  });

  it("computes pass rates per ledger, per skill, per team and per week", async () => {
    await seedCacheFixLedger();
    await recordOpenPrediction();
    await refuteOpenPrediction();
    await record("race", { action: "record-hypothesis", text: "h" });
    await record("race", { action: "record-prediction", id: "H1", text: "p", falsifiedBy: "true" });
    await record("race", { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "run 0" });
    await record("other-plan", { action: "record-hypothesis", text: "A second plan counts from 1" });
    const report = await (await t.call("GET", "/api/v1/ledger")).json();
    const cacheFix = report.ledgers.find((l: { slug: string }) => l.slug === "cache-fix");
    expect(cacheFix).toMatchObject({
      slug: "cache-fix",
      skill: "systematic-debugging",
      records: 12,
      openPredictions: 0,
      confirmed: 1,
      refuted: 1,
      inconclusive: 1,
    });
    expect(cacheFix.rate).toBeCloseTo(1 / 3, 10);
    const race = report.ledgers.find((l: { slug: string }) => l.slug === "race");
    expect(race).toMatchObject({ records: 3, openPredictions: 0, confirmed: 1, rate: 1 });
    expect(report.ledgers.find((l: { slug: string }) => l.slug === "other-plan")).toMatchObject({ records: 1, rate: null });
    expect(report.passRate.team).toEqual({ confirmed: 2, refuted: 1, inconclusive: 1, rate: 0.5 });
    expect(report.passRate.bySkill).toEqual([
      { skill: "systematic-debugging", confirmed: 1, refuted: 1, inconclusive: 1, rate: 1 / 3 },
      { skill: null, confirmed: 1, refuted: 0, inconclusive: 0, rate: 1 },
    ]);
    expect(report.passRate.byWeek).toHaveLength(1);
    expect(report.passRate.byWeek[0]).toMatchObject({ confirmed: 2, refuted: 1, inconclusive: 1, rate: 0.5 });
    expect(report.passRate.byWeek[0].week).toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});
