import { describe, expect, it } from "vitest";
import { caseChange, scaled, verdictOf, type Dimensions, type JudgedCase } from "@/lib/evolution/verdict";

const flat = (score: number): Dimensions => ({ correctness: score, completeness: score, adherence: score });
const pair = (original: number, amended: number): JudgedCase => ({ original: flat(original), amended: flat(amended) });

describe("exact scores", () => {
  it.each([
    [0.5, 50_000_000_000_000_000_000n],
    [1, 100_000_000_000_000_000_000n],
    [0, 0n],
    [0.1, 10_000_000_000_000_000_000n],
    [0.30000000000000004, 30_000_000_000_000_004_000n],
    [1e-7, 10_000_000_000_000n],
  ])("reads %s as the decimal it prints as", (value, expected) => {
    expect(scaled(value)).toBe(expected);
  });
});

describe("the verdict rules of docs/evaluation-and-activation.md#verdict-rules", () => {
  it.each<[string, JudgedCase[], string, number | null, [number, number, number]]>([
    ["no usable history", [], "inconclusive", null, [0, 0, 0]],
    ["more regressed than improved", [pair(0.5, 0.9), pair(0.5, 0.4), pair(0.5, 0.4)], "regressed", 0.066666666, [1, 2, 0]],
    ["delta just above 0.05", [pair(0.5, 0.550000001)], "improved", 0.050000001, [1, 0, 0]],
    ["delta exactly 0.05 is not improved", [pair(0.5, 0.55)], "neutral", 0.05, [1, 0, 0]],
    [
      "delta exactly 0.05 over uneven dimensions",
      [
        {
          original: { correctness: 0.4, completeness: 0.5, adherence: 0.6 },
          amended: { correctness: 0.45, completeness: 0.55, adherence: 0.65 },
        },
      ],
      "neutral",
      0.05,
      [1, 0, 0],
    ],
    ["delta just below 0.05", [pair(0.5, 0.549999999)], "neutral", 0.049999999, [1, 0, 0]],
    ["balanced improved and regressed, large delta", [pair(0.1, 0.9), pair(0.5, 0.4)], "neutral", 0.35, [1, 1, 0]],
    ["all unchanged", [pair(0.7, 0.7), pair(0.2, 0.2)], "neutral", 0, [0, 0, 2]],
    ["clear improvement", [pair(0.2, 0.8), pair(0.3, 0.6), pair(0.5, 0.5)], "improved", 0.3, [2, 0, 1]],
    [
      "more regressed than improved wins over a positive delta",
      [pair(0, 1), pair(0.5, 0.49), pair(0.5, 0.49)],
      "regressed",
      0.326666666,
      [1, 2, 0],
    ],
  ])("%s", (_, cases, verdict, delta, [improved, regressed, unchanged]) => {
    const result = verdictOf(cases);
    expect(result.verdict).toBe(verdict);
    expect([result.improved, result.regressed, result.unchanged]).toEqual([improved, regressed, unchanged]);
    if (delta === null) expect(result.delta).toBeNull();
    else expect(result.delta).toBeCloseTo(delta, 8);
  });

  it("counts a case improved only when the amended mean is strictly higher", () => {
    const same = {
      original: { correctness: 0.1, completeness: 0.2, adherence: 0.3 },
      amended: { correctness: 0.3, completeness: 0.2, adherence: 0.1 },
    };
    expect(caseChange(same)).toBe("unchanged");
    expect(0.1 + 0.2 + 0.3 === 0.3 + 0.2 + 0.1).toBe(false);
  });
});
