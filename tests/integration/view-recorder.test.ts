import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { skillViews } from "@/db/schema";
import { ensureTeam, type TeamId } from "@/lib/teams/teams";
import { ViewRecorder } from "@/lib/usage/view-recorder";
import type { SkillView } from "@/lib/usage/rollups";
import { openTestDatabase, resetDatabase, testDbKinds } from "../helpers/db";
import type { Database } from "@/db/client";

let teamId: TeamId;
const view = (sessionId: string, skillName = "writing-plans"): SkillView => ({
  teamId,
  skillName,
  source: "builtin",
  version: 1,
  keyId: null,
  sessionId,
  viewedAt: new Date("2026-12-01T00:00:00Z"),
});

/** The database as the recorder sees it while unreachable (its writes refused as a refused connection is), until `back()`. */
function unreachable(db: Db): { flaky: Db; back: () => void } {
  let down = true;
  const outage = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const flaky = new Proxy(db, {
    get: (target, property, receiver) =>
      property === "transaction" && down ? () => Promise.reject(outage) : Reflect.get(target, property, receiver),
  }) as Db;
  return { flaky, back: () => void (down = false) };
}

describe.each(testDbKinds)("the view recorder on %s", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  // Every test starts with one team and no views.
  beforeEach(async () => {
    await resetDatabase(database);
    teamId = (await ensureTeam(database.db, "solo")).id;
  });
  afterAll(async () => database?.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes every good view of a batch the database partly refuses, and drops the bad one with one log line", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const recorder = new ViewRecorder(database.db, { batchSize: 1000, intervalMs: 60_000 });
    // A NUL cannot be stored in text: the database refuses that row, and only that row.
    for (const session of ["a", "b", "poison\u0000ed", "c", "d"]) recorder.record(view(session));
    await recorder.flush();
    const rows = await database.db.select({ sessionId: skillViews.sessionId }).from(skillViews);
    expect(rows.map((row) => row.sessionId).sort()).toEqual(["a", "b", "c", "d"]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toMatch(
      /^skillgate: dropped a skill view the database refused \(team \d+, skill "writing-plans"\): /,
    );
    expect(String(errors.mock.calls[0]![0])).not.toContain("poison");
    // The next batch is not held back by the bad one.
    recorder.record(view("e"));
    await recorder.flush();
    expect(await database.db.$count(skillViews)).toBe(5);
    expect(recorder.pending).toBe(0);
  });

  it("keeps a batch for later when the database cannot be reached, and writes it once it can", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { flaky, back } = unreachable(database.db);
    const recorder = new ViewRecorder(flaky, { batchSize: 1000, intervalMs: 60_000 });
    recorder.record(view("kept-1"));
    recorder.record(view("kept-2"));
    await recorder.flush();
    expect(recorder.pending).toBe(2);
    back();
    await recorder.flush();
    expect(recorder.pending).toBe(0);
    const rows = await database.db.select({ sessionId: skillViews.sessionId }).from(skillViews);
    expect(rows.map((row) => row.sessionId).sort()).toEqual(["kept-1", "kept-2"]);
  });

  it("keeps at most its bound during an outage, the newest, and says how many it dropped and how the outage went", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { flaky, back } = unreachable(database.db);
    const recorder = new ViewRecorder(flaky, { batchSize: 1000, intervalMs: 60_000, maxBuffered: 10 });
    for (let i = 0; i < 8; i++) recorder.record(view(`v${i}`));
    await recorder.flush();
    for (let i = 8; i < 15; i++) recorder.record(view(`v${i}`));
    await recorder.flush();
    expect(recorder.pending).toBe(10);
    back();
    await recorder.flush();
    const rows = await database.db.select({ sessionId: skillViews.sessionId }).from(skillViews);
    expect(rows.map((row) => row.sessionId).sort()).toEqual(["v10", "v11", "v12", "v13", "v14", "v5", "v6", "v7", "v8", "v9"]);
    expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([
      "skillgate: writing skill views: the database is unavailable (connect ECONNREFUSED 127.0.0.1:5432 [ECONNREFUSED]); trying again until it answers",
      "skillgate: 5 skill view(s) were dropped during the outage: more than 10 waited",
      expect.stringMatching(/^skillgate: writing skill views: the database answers again, after 2 failed attempt\(s\) over \d+ s$/),
    ]);
  });

  it("lets the server answer between batches: what waits on the event loop runs before the second of 20 batches is written", async () => {
    // PGlite runs in this thread and its queries chain on promises alone: 20 batches written back
    // to back held every request in flight for all 20 (docs/hot-path.md).
    let written = 0;
    const counted = new Proxy(database.db, {
      get: (target, property, receiver) =>
        property === "transaction"
          ? (...args: Parameters<Db["transaction"]>) => target.transaction(...args).finally(() => void written++)
          : Reflect.get(target, property, receiver),
    }) as Db;
    const recorder = new ViewRecorder(counted, { batchSize: 50, intervalMs: 60_000 });
    let writtenWhenAnswered = -1;
    setImmediate(() => (writtenWhenAnswered = written));
    for (let i = 0; i < 1000; i++) recorder.record(view(`s${i}`, `skill-${i % 40}`));
    await recorder.flush();
    expect(written).toBe(20);
    expect(writtenWhenAnswered).toBeLessThanOrEqual(1);
    expect(writtenWhenAnswered).toBeGreaterThanOrEqual(0);
    expect((await database.db.select({ sessionId: skillViews.sessionId }).from(skillViews)).length).toBe(1000);
  });

  it("writes a buffer larger than one statement can take", async () => {
    const recorder = new ViewRecorder(database.db, { batchSize: 100_000, intervalMs: 60_000 });
    for (let i = 0; i < 12_000; i++) recorder.record(view(`s${i}`));
    await recorder.flush();
    expect(await database.db.$count(skillViews)).toBe(12_000);
  });
});
