import { describe, expect, it } from "vitest";
import type { PromptCase } from "@/db/schema";
import { activationMetrics, casePasses } from "@/lib/activation/metrics";

const c = (id: string, expected: string[], expectNone = false): PromptCase => ({ id, prompt: id, expected, expectNone });
const cases = [c("D1", ["debugging"]), c("D2", ["planning", "tdd"]), c("P1", ["debugging"]), c("G1", [], true), c("G2", [], true)];

describe("activation metrics (docs/evaluation-and-activation.md#metrics)", () => {
  it("passes a case when every expected skill loaded, or nothing loaded when nothing was expected", () => {
    expect(casePasses(cases[1]!, ["tdd", "planning", "extra"])).toBe(true);
    expect(casePasses(cases[1]!, ["tdd"])).toBe(false);
    expect(casePasses(cases[3]!, [])).toBe(true);
    expect(casePasses(cases[3]!, ["debugging"])).toBe(false);
  });

  it("computes every metric from hand-made results, over trials", () => {
    const runs = [
      { caseId: "D1", trial: 1, loaded: ["debugging"] },
      { caseId: "D1", trial: 2, loaded: ["debugging", "planning"] },
      { caseId: "D2", trial: 1, loaded: ["planning"] },
      { caseId: "D2", trial: 2, loaded: ["planning", "tdd"] },
      { caseId: "P1", trial: 1, loaded: [] },
      { caseId: "P1", trial: 2, loaded: ["tdd"] },
      { caseId: "G1", trial: 1, loaded: [] },
      { caseId: "G1", trial: 2, loaded: ["debugging"] },
      { caseId: "G2", trial: 1, loaded: [] },
      { caseId: "G2", trial: 2, loaded: [] },
    ];
    expect(activationMetrics(cases, runs)).toEqual({
      // with expectations: D1 ×2 pass, D2 1 of 2, P1 0 of 2 → 3 of 6
      activationRate: 0.5,
      byClass: { D: 3 / 4, P: 0, G: 3 / 4 },
      falseTriggerRate: 1 / 4,
      perSkill: {
        debugging: { expected: 4, loaded: 2, recall: 0.5 },
        planning: { expected: 2, loaded: 2, recall: 1 },
        tdd: { expected: 2, loaded: 1, recall: 0.5 },
      },
      // D1 trial 2 loaded planning; P1 trial 2 loaded tdd; G1 trial 2 loaded debugging
      wrongSelections: 3,
    });
  });

  it("answers null for a rate with nothing to count, never 0", () => {
    const onlyKeywords = activationMetrics([c("D1", ["debugging"])], [{ caseId: "D1", trial: 1, loaded: ["debugging"] }]);
    expect(onlyKeywords).toEqual({
      activationRate: 1,
      byClass: { D: 1, P: null, G: null },
      falseTriggerRate: null,
      perSkill: { debugging: { expected: 1, loaded: 1, recall: 1 } },
      wrongSelections: 0,
    });
    expect(activationMetrics([], [])).toEqual({
      activationRate: null,
      byClass: { D: null, P: null, G: null },
      falseTriggerRate: null,
      perSkill: {},
      wrongSelections: 0,
    });
  });
});
