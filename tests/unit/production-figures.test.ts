import { medianOfBuckets } from "@/lib/usage/production-days";
import { describe, expect, it } from "vitest";
import {
  compareFailureRates,
  costly,
  loadedThenFailing,
  NO_PRODUCTION,
  sumProduction,
  wilson,
  withProduction,
  type Production,
} from "@/lib/usage/production";

/** The arithmetic behind "is a skill helping?": Wilson intervals, the minimum sample, and the two overview flags. */

function figures(prompts: number, toolCalls: number, toolFailures: number, costUsd: number): Production {
  return { ...NO_PRODUCTION, prompts, toolCalls, toolFailures, failureRate: wilson(toolFailures, toolCalls), costUsd };
}

describe("production figures", () => {
  it("gives the 95% Wilson interval of published tables, and none without a trial", () => {
    const rounded = (rate: ReturnType<typeof wilson>) => rate && [rate.value, rate.low, rate.high].map((x) => Number(x.toFixed(4)));
    expect(rounded(wilson(0, 10))).toEqual([0, 0, 0.2775]);
    expect(rounded(wilson(5, 10))).toEqual([0.5, 0.2366, 0.7634]);
    expect(rounded(wilson(2, 3))).toEqual([0.6667, 0.2077, 0.9385]);
    expect(rounded(wilson(10, 10))).toEqual([1, 0.7225, 1]);
    expect(wilson(0, 0)).toBeNull();
  });

  it("compares failure rates only past 30 tool calls on each side, and only when the intervals are apart", () => {
    expect(compareFailureRates(figures(10, 40, 30, 0), figures(10, 40, 2, 0))).toBe("higher");
    expect(compareFailureRates(figures(10, 40, 2, 0), figures(10, 40, 30, 0))).toBe("lower");
    expect(compareFailureRates(figures(10, 40, 8, 0), figures(10, 40, 5, 0))).toBe("no clear difference");
    expect(compareFailureRates(figures(10, 29, 29, 0), figures(10, 400, 0, 0))).toBe("n too small");
    expect(compareFailureRates(figures(10, 30, 29, 0), figures(10, 30, 0, 0))).toBe("higher");
  });

  it("flags loaded, then failing against the no-skill baseline, and costly at twice its cost per prompt with 10 prompts each", () => {
    const baseline = figures(10, 40, 2, 0.2);
    expect(loadedThenFailing(figures(10, 40, 30, 0.2), baseline)).toBe(true);
    expect(loadedThenFailing(figures(10, 40, 3, 0.2), baseline)).toBe(false);
    expect(costly(figures(10, 40, 0, 0.4), baseline)).toBe(true);
    expect(costly(figures(10, 40, 0, 0.39), baseline)).toBe(false);
    expect(costly(figures(9, 40, 0, 4), baseline)).toBe(false);
    expect(costly(figures(10, 40, 0, 1), figures(10, 40, 0, 0))).toBe(false);
  });

  it("adds parts up, with no median for a sum", () => {
    const sum = sumProduction([figures(1, 3, 2, 0.03), figures(2, 2, 1, 0.02)]);
    expect(sum).toEqual({ ...figures(3, 5, 3, 0.05), medianPromptMs: null });
    expect(sumProduction([])).toEqual(NO_PRODUCTION);
  });

  it("sets each version beside the one before it and beside no skill", () => {
    const rows = withProduction(
      [{ version: 1 }, { version: 2 }, { version: 3 }],
      [
        { version: 1, production: figures(10, 40, 2, 0), failingTools: [] },
        { version: 2, production: figures(10, 40, 30, 0), failingTools: [{ tool: "Bash", failures: 30, error: null }] },
      ],
      figures(10, 40, 2, 0),
    );
    expect(rows.map((row) => [row.version, row.production.toolCalls, row.failureRateVsPrevious, row.failureRateVsNoSkill])).toEqual([
      [1, 40, null, "no clear difference"],
      [2, 40, "higher", "higher"],
      [3, 0, "n too small", "n too small"],
    ]);
    expect(rows[1]!.failingTools).toEqual([{ tool: "Bash", failures: 30, error: null }]);
  });
});

describe("medianOfBuckets: the median prompt time from the rollup's buckets", () => {
  const bucket = (b: number, prompts: number, promptMs: number) => ({ bucket: b, prompts, promptMs });

  it("takes the middle prompt of an odd count, each prompt at its bucket's mean, in bucket order whatever the rows' order", () => {
    expect(medianOfBuckets([bucket(460, 1, 9_000), bucket(440, 2, 8_000), bucket(470, 2, 22_000)])).toBe(9_000);
  });

  it("takes the mean of the middle two of an even count, as percentile_cont(0.5) does", () => {
    expect(medianOfBuckets([bucket(419, 1, 4_000), bucket(454, 1, 8_000)])).toBe(6_000);
    expect(medianOfBuckets([bucket(419, 3, 12_000), bucket(454, 1, 8_000)])).toBe(4_000);
  });

  it("reads a bucket of prompts 1% apart as their mean, rounded to the ms", () => {
    expect(medianOfBuckets([bucket(466, 3, 10_000 + 10_050 + 10_101)])).toBe(10_050);
  });

  it("is null with no prompt, and leaves out buckets whose prompts all moved to another part", () => {
    expect(medianOfBuckets([])).toBeNull();
    expect(medianOfBuckets([bucket(419, 0, 0)])).toBeNull();
    expect(medianOfBuckets([bucket(100, 0, 0), bucket(419, 1, 4_000)])).toBe(4_000);
  });
});
