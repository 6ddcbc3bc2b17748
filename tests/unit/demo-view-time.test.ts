import { describe, expect, it } from "vitest";
import { demoViewTime } from "@/lib/demo/seed";
import { daysBefore, utcDay } from "@/lib/usage/rollups";

/**
 * The demo's views must fall on the UTC days they stand for, or the overview's "Views 7d" and
 * "Views 30d" depend on the hour the demo was seeded at: seeded at 00:30 UTC, a view 6 days and
 * 40 minutes back fell out of the week (overview-fit.test.ts read "Views 7d 3" for 4).
 */
describe("demo views", () => {
  // The demo's session patterns place views 0 to 222 minutes before their day's moment (lib/demo/seed.ts).
  const minutes = [0, 3, 6, 37, 40, 74, 111, 114, 148, 185, 188, 222];

  it.each([
    "2026-12-06T00:00:00.000Z",
    "2026-12-06T00:05:00.000Z",
    "2026-12-06T00:30:00.000Z",
    "2026-12-06T03:42:59.999Z",
    "2026-12-06T12:00:00.000Z",
    "2026-12-06T23:59:59.999Z",
  ])("fall on the UTC day they stand for, never after the moment of seeding, when seeded at %s", (at) => {
    const now = Date.parse(at);
    const misplaced: string[] = [];
    for (let day = 0; day < 30; day++)
      for (const m of minutes) {
        const viewed = demoViewTime(now, day, m);
        if (utcDay(viewed) !== daysBefore(new Date(now), day) || viewed.getTime() > now)
          misplaced.push(`${day}d ${m}min: ${viewed.toISOString()}`);
      }
    expect(misplaced).toEqual([]);
  });

  it("keep the loads of a session in their order, and their minutes apart when the day allows it", () => {
    const noon = Date.parse("2026-12-06T12:00:00.000Z");
    expect([0, 3, 6].map((m) => demoViewTime(noon, 2, m).toISOString())).toEqual([
      "2026-12-04T12:00:00.000Z",
      "2026-12-04T11:57:00.000Z",
      "2026-12-04T11:54:00.000Z",
    ]);
    const early = Date.parse("2026-12-06T00:10:00.000Z");
    const times = [0, 3, 6, 222].map((m) => demoViewTime(early, 6, m).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(times).size).toBe(4);
  });
});
