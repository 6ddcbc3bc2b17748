import { MockLanguageModelV3 } from "ai/test";
import type { ConfiguredModel } from "../evolution/model";
import type { JudgeAnswer } from "../evolution/judge";

/**
 * The demo's judge: answers recorded for the demo's own runs, replayed by task (and, where an
 * amendment has its own, by a passage of it). It lets a fresh
 * start show real evaluations (real selection, verdict rules and promotion) with no model
 * configured; its id says what it is wherever an evaluation shows it.
 */
export function recordedJudge(answers: Record<string, JudgeAnswer>): ConfiguredModel {
  const model = new MockLanguageModelV3({
    modelId: "recorded-judge",
    doGenerate: async (options) => {
      const prompt = options.prompt.map((message) => JSON.stringify(message.content)).join("\n");
      // A judgement keyed "<task>\n<passage>" is for the amendment holding that passage; it wins over the task's general one.
      const matches = (key: string) => key.split("\n").every((part) => prompt.includes(JSON.stringify(part).slice(1, -1)));
      const recorded =
        Object.entries(answers).find(([key]) => key.includes("\n") && matches(key)) ??
        Object.entries(answers).find(([key]) => !key.includes("\n") && matches(key));
      const answer = recorded
        ? recorded[1]
        : { original: flat(0.5), amended: flat(0.5), rationale: "No recorded judgement for this task." };
      return {
        content: [{ type: "text", text: JSON.stringify(answer) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, id: "demo:recorded-judge" };
}

function flat(score: number) {
  return { correctness: score, completeness: score, adherence: score };
}
