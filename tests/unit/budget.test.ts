import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asLongWork, DEFAULT_QUERY_MS, isLongWork, outOfTime, queryBudgetMs, refusal, withDeadline } from "@/db/budget";
import { isDatabaseBusy, isDatabaseOutage } from "@/db/outage";

/**
 * The database budget (db/budget.ts) on its own: what a statement may take in each kind of work,
 * and why one is not even sent. db/budgeted-pg.ts spends it on a real server
 * (tests/integration/query-budget.test.ts).
 */
const LONG_QUERY_MS = 20_000;

describe("the database budget", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("spends one deadline across a request's statements; long work gets the long allowance each, anything else 4 s", async () => {
    const spent: number[] = [];
    await withDeadline(4_000, async () => {
      spent.push(queryBudgetMs(LONG_QUERY_MS));
      await vi.advanceTimersByTimeAsync(1_500);
      spent.push(queryBudgetMs(LONG_QUERY_MS));
      // Long work inside a request runs as long work, whatever surrounds it.
      await asLongWork(async () => spent.push(queryBudgetMs(LONG_QUERY_MS)));
      spent.push(queryBudgetMs(LONG_QUERY_MS));
    });
    spent.push(queryBudgetMs(LONG_QUERY_MS));
    expect(spent).toEqual([4_000, 2_500, LONG_QUERY_MS, 2_500, DEFAULT_QUERY_MS]);
    expect(DEFAULT_QUERY_MS).toBe(4_000);
    expect([isLongWork(), await asLongWork(async () => isLongWork()), await withDeadline(10, async () => isLongWork())]).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("refuses a statement of a request past its deadline as load, and anything while the server is away as an outage", async () => {
    const late = await withDeadline(1_000, async () => {
      await vi.advanceTimersByTimeAsync(1_000);
      return refusal(false, queryBudgetMs(LONG_QUERY_MS));
    });
    expect([late?.code, late?.message, isDatabaseBusy(late), isDatabaseOutage(late)]).toEqual([
      "DATABASE_BUSY",
      "the request had no time left for the database",
      true,
      false,
    ]);
    const away = refusal(true, 4_000);
    expect([away?.code, away?.message, isDatabaseBusy(away), isDatabaseOutage(away)]).toEqual([
      "DATABASE_STALLED",
      "the database is away: the last probe got no answer",
      false,
      true,
    ]);
    // Away says more than out of time: nothing would answer it anyway.
    expect(refusal(true, 0)?.code).toBe("DATABASE_STALLED");
    expect(refusal(false, 1)).toBeNull();
  });

  it("says a wait that ran out is load while the server answers, an outage once it is found away", () => {
    const busy = outOfTime(false, "no database connection came free within 800 ms");
    expect([busy.code, busy.message]).toEqual(["DATABASE_BUSY", "no database connection came free within 800 ms"]);
    const stalled = outOfTime(true, "no database connection came free within 800 ms");
    expect([stalled.code, stalled.message]).toEqual(["DATABASE_STALLED", "the database stopped answering (a probe got no answer)"]);
  });
});
