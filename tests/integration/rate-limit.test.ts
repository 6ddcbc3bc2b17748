import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, rateLimits } from "@/db/schema";
import { installApp } from "@/lib/current-app";
import type { App } from "@/lib/contracts/app";
import { anotherInstance, errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

const LIMIT = 40;

/**
 * A key's limit holds across instances (issue 14): each instance claims the window's allowance in
 * chunks (here 2 of 40) from one row, so together they never admit more than the limit.
 */
describe.each(testDbKinds)("the rate limit shared by instances on %s", (kind) => {
  const t = useTestApp(kind, { rateLimitPerMinute: LIMIT });

  /** Sends `count` listing requests to `app` as the only installed instance; the statuses it answered. */
  async function through(app: App, count: number): Promise<number[]> {
    const putBack = installApp(app);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) statuses.push((await t.call("GET", "/api/v1/listing")).status);
      return statuses;
    } finally {
      putBack();
    }
  }
  /** The rate-limit name of alpha's admin key: its id. */
  const alphaKey = async () => {
    const [key] = await t.app.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.teamId, t.alpha.team.id));
    return String(key!.id);
  };
  /** What the shared row says the key's window has given out. */
  const usedInWindow = async () => {
    const [row] = await t.app.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, await alphaKey()));
    return row?.used;
  };
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  it("admits exactly the limit across two instances, one after the other, and says when to retry", async () => {
    const other = anotherInstance(t.app, { rateLimitPerMinute: LIMIT });
    try {
      // Claims start at one request and double up to a twentieth (2 of 40): the first instance
      // claims 1 + 2 × 12 for its 25 requests, the second the 15 left.
      expect(count(await through(t.app, 25), 200)).toBe(25);
      const second = await through(other, 20);
      expect([count(second, 200), count(second, 429)]).toEqual([15, 5]);
      // Nothing is left for the first either: 40 in all.
      expect(await through(t.app, 2)).toEqual([429, 429]);
      const refused = await t.call("GET", "/api/v1/listing");
      const seconds = Number(refused.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(await errorOf(refused)).toEqual({ code: "RateLimited", message: `too many requests for this API key; retry in ${seconds} s` });
      expect(await usedInWindow()).toBe(LIMIT);
    } finally {
      await other.close();
    }
  });

  it("never admits more than the limit when two instances take requests at once", async () => {
    const other = anotherInstance(t.app, { rateLimitPerMinute: LIMIT });
    try {
      const key = await alphaKey();
      const burst = (app: App) => Promise.all(Array.from({ length: 30 }, () => app.limiter!.take(key)));
      const [first, second] = await Promise.all([burst(t.app), burst(other)]);
      const admitted = [...first, ...second].filter((state) => state.admitted).length;
      // At most a chunk stranded in each instance's memory.
      expect(admitted).toBeLessThanOrEqual(LIMIT);
      expect(admitted).toBeGreaterThanOrEqual(LIMIT - 2);
      expect(await usedInWindow()).toBe(LIMIT);
    } finally {
      await other.close();
    }
  });

  it("claims one request first, then twice as much each time the instance needs more, up to a twentieth", async () => {
    const used: number[] = [];
    for (let i = 0; i < 4; i++) {
      await through(t.app, 1);
      used.push((await usedInWindow()) ?? 0);
    }
    // Claims of 1, 2 (the cap for 40), then 2 again once those are spent.
    expect(used).toEqual([1, 3, 3, 5]);
  });

  it("says as remaining what no instance had claimed at this one's last claim, plus what this one holds (docs/decisions/rate-limit-headers.md)", async () => {
    const other = anotherInstance(t.app, { rateLimitPerMinute: LIMIT });
    /** X-RateLimit-Remaining of one request through `app`. */
    const remaining = async (app: App) => {
      const putBack = installApp(app);
      try {
        return (await t.call("GET", "/api/v1/listing")).headers.get("x-ratelimit-remaining");
      } finally {
        putBack();
      }
    };
    try {
      const said = [await remaining(t.app), await remaining(t.app), await remaining(other), await remaining(t.app), await remaining(other)];
      // Truly left after each: 39, 38, 37, 36, 35. The first instance claims 1, then 2 (one left
      // unspent); the second claims 1 and counts that unspent one as used (36, one low); the first
      // spends it, not knowing of the second's claim (37, one high); the second claims 2 more, and
      // with no chunk unspent elsewhere it is exact again (40 − 6 claimed + 1 it holds).
      expect(said).toEqual(["39", "38", "36", "37", "35"]);
      expect(await usedInWindow()).toBe(6);
    } finally {
      await other.close();
    }
  });

  it("starts a new window a minute after the last began", async () => {
    expect(count(await through(t.app, LIMIT + 1), 429)).toBe(1);
    await t.app.db
      .update(rateLimits)
      .set({ windowStart: new Date(Date.now() - 61_000) })
      .where(eq(rateLimits.key, await alphaKey()));
    // This instance still remembers the old window's end: a fresh one sees the new window at once.
    const other = anotherInstance(t.app, { rateLimitPerMinute: LIMIT });
    try {
      expect(await through(other, 1)).toEqual([200]);
      expect(await usedInWindow()).toBe(1);
    } finally {
      await other.close();
    }
  });
});
