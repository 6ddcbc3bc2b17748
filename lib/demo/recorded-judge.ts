import { MockLanguageModelV3 } from "ai/test";
import type { ConfiguredModel } from "../evolution/model";
import type { JudgeAnswer } from "../evolution/judge";

/**
 * The demo's judge: answers recorded for the demo's own runs, replayed by task. It lets a fresh
 * start show real evaluations (real selection, verdict rules and promotion) with no model
 * configured; its id says what it is wherever an evaluation shows it.
 */
export function recordedJudge(answers: Record<string, JudgeAnswer>): ConfiguredModel {
  const model = new MockLanguageModelV3({
    modelId: "recorded-judge",
    doGenerate: async (options) => {
      const prompt = JSON.stringify(options.prompt);
      const recorded = Object.entries(answers).find(([task]) => prompt.includes(task));
      const answer = recorded ? recorded[1] : { original: flat(0.5), amended: flat(0.5), rationale: "No recorded judgement for this task." };
      return {
        content: [{ type: "text", text: JSON.stringify(answer) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } },
        warnings: [],
      };
    },
  });
  return { model, id: "demo:recorded-judge" };
}

function flat(score: number) {
  return { correctness: score, completeness: score, adherence: score };
}
