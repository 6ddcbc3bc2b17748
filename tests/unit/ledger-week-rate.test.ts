import { describe, expect, it } from "vitest";
import { FEW_VERDICTS, passRateOf, rateWithN, weekRate } from "@/lib/ledger/week-rate";

const week = (confirmed: number, refuted: number, inconclusive: number) =>
  weekRate({ week: "2026-11-30", confirmed, refuted, inconclusive });

describe("a week's pass rate with its n", () => {
  it("counts every verdict in n and only confirmed ones in the rate", () => {
    expect(week(4, 1, 1)).toEqual({ week: "2026-11-30", confirmed: 4, refuted: 1, inconclusive: 1, verdicts: 6, rate: 4 / 6, few: false });
  });

  it.each([
    [1, 0, 0, true],
    [0, 1, 0, true],
    [2, 1, 1, true],
    [2, 2, 1, false],
    [0, 0, 5, false],
  ])("%i confirmed, %i refuted, %i inconclusive: few is %s", (confirmed, refuted, inconclusive, few) => {
    expect(week(confirmed, refuted, inconclusive).few).toBe(few);
    expect(week(confirmed, refuted, inconclusive).verdicts < FEW_VERDICTS).toBe(few);
  });

  it("has no rate when nothing was judged: nothing to count is not 0%", () => {
    expect(week(0, 0, 0)).toMatchObject({ verdicts: 0, rate: null, few: true });
    expect(passRateOf({ confirmed: 0, refuted: 0, inconclusive: 0 })).toBeNull();
    expect(passRateOf({ confirmed: 0, refuted: 3, inconclusive: 0 })).toBe(0);
  });

  it.each([
    [week(4, 1, 1), "67% (n=6)"],
    [week(1, 0, 0), "100% (n=1)"],
    [week(0, 2, 0), "0% (n=2)"],
    [week(0, 0, 0), "— (n=0)"],
  ])("says %o as %s", (rate, said) => {
    expect(rateWithN(rate)).toBe(said);
  });
});
