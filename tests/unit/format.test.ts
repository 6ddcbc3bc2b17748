import { describe, expect, it } from "vitest";
import { percent, relativeTime, twoDecimals, utcMinute } from "@/lib/format";

const NOW = new Date("2026-12-03T04:06:30.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe("relativeTime", () => {
  it.each([
    [0, "just now"],
    [59 * SECOND + 999, "just now"],
    [MINUTE, "1 min ago"],
    [2 * MINUTE - 1, "1 min ago"],
    [59 * MINUTE + 59 * SECOND, "59 min ago"],
    [HOUR, "1 h ago"],
    [2 * HOUR + 30 * MINUTE, "2 h ago"],
    [DAY - 1, "23 h ago"],
    [DAY, "1 d ago"],
    [3 * DAY + 23 * HOUR, "3 d ago"],
    [60 * DAY - 1, "59 d ago"],
    [60 * DAY, "2 mo ago"],
    [365 * DAY - 1, "12 mo ago"],
    [365 * DAY, "1 y ago"],
    [3 * 365 * DAY, "3 y ago"],
  ])("says %i ms before now as %s", (before, said) => {
    expect(relativeTime(ago(before), NOW)).toBe(said);
  });

  it.each([
    [-(59 * SECOND + 999), "just now"],
    [-MINUTE, "in 1 minute"],
    [-(2 * MINUTE + 29 * SECOND), "in 2 minutes"],
    [-(HOUR - 1), "in 60 minutes"],
    [-HOUR, "in 1 hour"],
    [-(7 * DAY - 5 * SECOND), "in 7 days"],
    [-(6 * DAY + 11 * HOUR), "in 6 days"],
    [-7 * DAY, "in 7 days"],
    [-90 * DAY, "in 3 months"],
  ])("says %i ms before now (a moment to come) as %s, to the nearest unit", (before, said) => {
    expect(relativeTime(ago(before), NOW)).toBe(said);
  });

  it("takes an ISO string as well as a Date", () => {
    expect(relativeTime("2026-12-03T02:06:30.000Z", NOW)).toBe("2 h ago");
  });
});

describe("utcMinute", () => {
  it.each([
    [new Date("2026-12-03T04:06:59.999Z"), "2026-12-03 04:06 UTC"],
    ["2026-01-01T00:00:00.000Z", "2026-01-01 00:00 UTC"],
    // A moment written with an offset is said in UTC.
    ["2026-06-30T23:30:00+02:00", "2026-06-30 21:30 UTC"],
  ])("says %s as %s", (at, said) => {
    expect(utcMinute(at)).toBe(said);
  });
});

describe("percent", () => {
  it.each([
    [null, "—"],
    [undefined, "—"],
    [0, "0%"],
    [0.125, "13%"],
    [1, "100%"],
  ])("says %s as %s", (rate, said) => {
    expect(percent(rate)).toBe(said);
  });
});

describe("twoDecimals", () => {
  it.each([
    [0.6099317177374497, "0.61"],
    [0.6920315749954332, "0.69"],
    [0.8000000000000002, "0.80"],
    [0.4, "0.40"],
    [1, "1.00"],
    [0, "0.00"],
    // Half away from zero, where toFixed(2) says 0.07 and -0.07.
    [0.075, "0.08"],
    [-0.075, "-0.08"],
    [-0.15, "-0.15"],
    // Rounded to nothing, it says no sign.
    [-0.004, "0.00"],
    [null, "—"],
    [undefined, "—"],
  ])("says %s as %s", (value, said) => {
    expect(twoDecimals(value)).toBe(said);
  });

  it.each([
    [0.3, "+0.30"],
    [-0.15, "-0.15"],
    [0, "0.00"],
    [0.004, "0.00"],
    [null, "—"],
  ])("says the delta %s as %s, signed", (value, said) => {
    expect(twoDecimals(value, { signed: true })).toBe(said);
  });
});
