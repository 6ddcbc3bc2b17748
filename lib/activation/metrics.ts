import type { PromptCase } from "@/db/schema";
import { classOf, type CaseClass } from "./prompt-sets";

/** One case in one trial and the skills the activator loaded. */
export interface CaseRun {
  caseId: string;
  trial: number;
  loaded: string[];
}

export interface ActivationMetrics {
  activationRate: number | null;
  byClass: Record<CaseClass, number | null>;
  falseTriggerRate: number | null;
  perSkill: Record<string, { expected: number; loaded: number; recall: number | null }>;
  wrongSelections: number;
}

/** Passes when it expects nothing and loaded nothing, or when every expected skill was loaded (docs/evaluation-and-activation.md#metrics). */
export function casePasses(c: PromptCase, loaded: string[]): boolean {
  if (c.expectNone) return loaded.length === 0;
  return c.expected.every((name) => loaded.includes(name));
}

const rate = (numerator: number, denominator: number) => (denominator === 0 ? null : numerator / denominator);

/** The metrics of docs/evaluation-and-activation.md#metrics, exactly; a rate with nothing to count is null, never 0. */
export function activationMetrics(cases: PromptCase[], runs: CaseRun[]): ActivationMetrics {
  const byId = new Map(cases.map((c) => [c.id, c]));
  let withExpectations = 0;
  let passingWithExpectations = 0;
  let expectNone = 0;
  let falseTriggers = 0;
  let wrongSelections = 0;
  const classes: Record<CaseClass, { runs: number; passed: number }> = {
    D: { runs: 0, passed: 0 },
    P: { runs: 0, passed: 0 },
    G: { runs: 0, passed: 0 },
  };
  const perSkill: ActivationMetrics["perSkill"] = {};
  for (const run of runs) {
    const c = byId.get(run.caseId);
    if (!c) continue;
    const passed = casePasses(c, run.loaded);
    const cls = classes[classOf(c.id)];
    cls.runs++;
    if (passed) cls.passed++;
    if (c.expectNone) {
      expectNone++;
      if (run.loaded.length > 0) falseTriggers++;
    } else {
      withExpectations++;
      if (passed) passingWithExpectations++;
    }
    for (const name of c.expected) {
      const skill = (perSkill[name] ??= { expected: 0, loaded: 0, recall: null });
      skill.expected++;
      if (run.loaded.includes(name)) skill.loaded++;
    }
    wrongSelections += new Set(run.loaded.filter((name) => !c.expected.includes(name))).size;
  }
  for (const skill of Object.values(perSkill)) skill.recall = rate(skill.loaded, skill.expected);
  return {
    activationRate: rate(passingWithExpectations, withExpectations),
    byClass: {
      D: rate(classes.D.passed, classes.D.runs),
      P: rate(classes.P.passed, classes.P.runs),
      G: rate(classes.G.passed, classes.G.runs),
    },
    falseTriggerRate: rate(falseTriggers, expectNone),
    perSkill,
    wrongSelections,
  };
}
