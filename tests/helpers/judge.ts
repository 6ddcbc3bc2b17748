import { MockLanguageModelV3 } from "ai/test";
import type { ConfiguredModel } from "@/lib/evolution/model";

/** A generate result from the AI SDK's mock model: the text a model would answer. */
export function mockAnswer(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: { inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } },
    warnings: [],
  };
}

export interface Scores {
  original: [number, number, number];
  amended: [number, number, number];
}

const dims = ([correctness, completeness, adherence]: [number, number, number]) => ({ correctness, completeness, adherence });

export function judgeJson(scores: Scores, rationale = "judged"): string {
  return JSON.stringify({ original: dims(scores.original), amended: dims(scores.amended), rationale });
}

/**
 * A judge that answers from the case's task text: `scoreFor(task)` decides each case's scores,
 * or a raw string to answer something malformed. Every prompt it saw is kept.
 */
export function mockJudge(
  answer: (prompt: string) => string | Promise<string>,
  modelId = "mock-judge",
): ConfiguredModel & { model: MockLanguageModelV3 } {
  const model = new MockLanguageModelV3({
    modelId,
    doGenerate: async (options) => {
      const prompt = options.prompt
        .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")))
        .join("\n");
      return mockAnswer(await answer(prompt));
    },
  });
  return { model, id: `mock:${modelId}` };
}

/** The recorded task of the case in a judge prompt. */
export function taskOf(prompt: string): string {
  return /## Task \(as recorded\)\n([^\n]*)/.exec(prompt)?.[1] ?? "";
}
