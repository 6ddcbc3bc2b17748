import { describe, expect, it } from "vitest";
import {
  chosenRate,
  comparisonSentence,
  costPerActivation,
  duration,
  intervalScale,
  per100WithInterval,
  rateWithInterval,
  tokensPerActivation,
} from "@/lib/pages/production-figures";
import { NO_PRODUCTION, wilson, type Production } from "@/lib/usage/production";

const figures = (calls: number, failures: number, change: Partial<Production> = {}): Production => ({
  ...NO_PRODUCTION,
  toolCalls: calls,
  toolFailures: failures,
  failureRate: wilson(failures, calls),
  ...change,
});

describe("how the skill page says a version's production figures", () => {
  it("writes a failure rate with its 95% interval, and a dash with no tool call", () => {
    expect(rateWithInterval(wilson(2, 40))).toBe("5.0% (1.4–16.5%)");
    expect(rateWithInterval(wilson(0, 3))).toBe("0.0% (0.0–56.1%)");
    expect(rateWithInterval(null)).toBe("—");
  });

  it("writes chosen per 100 prompts with its 95% interval, so 2 of 6 does not read as sure as 140 of 420", () => {
    expect(per100WithInterval(chosenRate(2, 6))).toBe("33.3 (9.7–70.0)");
    expect(per100WithInterval(chosenRate(140, 420))).toBe("33.3 (29.0–38.0)");
    expect(per100WithInterval(chosenRate(0, 7))).toBe("0.0 (0.0–35.4)");
    // Activated twice in one prompt: at most every prompt.
    expect(per100WithInterval(chosenRate(3, 2))).toBe("100.0 (34.2–100.0)");
    expect(per100WithInterval(chosenRate(0, 0))).toBe("—");
  });

  it("gives cost and tokens per prompt it was loaded in, and prompt time a person reads", () => {
    expect(costPerActivation(figures(0, 0, { prompts: 4, costUsd: 0.2 }))).toBe("$0.050");
    expect(costPerActivation(figures(0, 0, { prompts: 2, costUsd: 0.84 }))).toBe("$0.42");
    expect(costPerActivation(NO_PRODUCTION)).toBe("—");
    expect(tokensPerActivation(figures(0, 0, { prompts: 3, tokens: 426_001 }))).toBe("142,000");
    expect([duration(850), duration(6000), duration(125_400), duration(null)]).toEqual(["850 ms", "6 s", "2 min 05 s", "—"]);
  });

  it("scales the interval bars to the highest interval end, rounded up to a tenth, at least a tenth", () => {
    expect(intervalScale([wilson(2, 40), wilson(30, 40)])).toBe(0.9);
    expect(intervalScale([wilson(1, 1000), null])).toBe(0.1);
    expect(intervalScale([wilson(40, 40)])).toBe(1);
  });

  it("answers 'did v2 make things worse than v1?' in one sentence per comparison, with the minimum below it", () => {
    const v1 = { version: 1, production: figures(40, 2) };
    expect(comparisonSentence("higher", { version: 2, production: figures(40, 30) }, v1)).toBe(
      "Yes: tools failed more often with v2, 75.0% (59.8–85.8%) of 40 calls, than with v1, 5.0% (1.4–16.5%) of 40 calls; the intervals do not overlap.",
    );
    expect(comparisonSentence("lower", v1, { version: 2, production: figures(40, 30) })).toBe(
      "No, better: tools failed less often with v1, 5.0% (1.4–16.5%) of 40 calls, than with v2, 75.0% (59.8–85.8%) of 40 calls; the intervals do not overlap.",
    );
    expect(comparisonSentence("no clear difference", { version: 2, production: figures(40, 3) }, v1)).toBe(
      "No clear difference: tools failed in 7.5% (2.6–19.9%) of 40 calls with v2 and 5.0% (1.4–16.5%) of 40 calls with v1; the intervals overlap.",
    );
    expect(comparisonSentence("n too small", { version: 2, production: figures(1, 1) }, v1)).toBe(
      "n too small: v2 has 1 tool call and v1 has 40 tool calls; comparing their failure rates needs at least 30 with each.",
    );
  });
});
