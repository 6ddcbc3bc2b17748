import { generateObject } from "ai";
import { z } from "zod";
import { failureMessage } from "./failure-message";
import type { ConfiguredModel } from "./model";
import type { Dimensions } from "./verdict";

/** The judge (docs/evaluation-and-activation.md#the-judge-model): one call per test case, temperature 0, a fixed output schema. */
export const JUDGE_PROMPT_VERSION = "judge-v1";

const score = z.number().min(0).max(1);
const dimensions = z.object({ correctness: score, completeness: score, adherence: score });
export const judgeAnswerSchema = z.object({ original: dimensions, amended: dimensions, rationale: z.string() });
export type JudgeAnswer = { original: Dimensions; amended: Dimensions; rationale: string };

export interface JudgeCase {
  task: string;
  category: string;
  outcome: string;
  errorType: string | null;
  failedToolCalls: string[] | null;
  feedback: string | null;
}

const SYSTEM = [
  "You judge two versions of an agent skill: a written procedure an AI agent follows.",
  "You get one task the agent once ran with the original version, what happened, and the full text of both versions.",
  "This is a judged comparison, not a re-execution: reason about how an agent following each version would have handled this task.",
  "Score each version from 0 to 1 on three dimensions:",
  "- correctness: following it would lead to a right result for this task;",
  "- completeness: it covers every step this task needed;",
  "- adherence: an agent can follow it as written, without guessing.",
  "Be strict and consistent. Answer with the JSON object only.",
].join("\n");

export function judgePrompt(c: JudgeCase, original: string, amended: string): { system: string; prompt: string } {
  const facts = [
    `Category: ${c.category}`,
    `Outcome with the original version: ${c.outcome}`,
    c.errorType ? `Error type: ${c.errorType}` : null,
    c.failedToolCalls?.length ? `Failed tool calls: ${c.failedToolCalls.join(", ")}` : null,
    c.feedback ? `Feedback: ${c.feedback}` : null,
  ].filter((line) => line !== null);
  const prompt = [
    "## Task (as recorded)",
    c.task,
    "",
    "## What happened",
    ...facts,
    "",
    "## Original version (SKILL.md)",
    original,
    "",
    "## Amended version (SKILL.md)",
    amended,
  ].join("\n");
  return { system: SYSTEM, prompt };
}

export type JudgeOutcome =
  | { ok: true; answer: JudgeAnswer; attempts: number; promptChars: number }
  | { ok: false; error: string; attempts: number; promptChars: number };

/** Asks the judge once, and once more if the answer does not fit the schema; never invents a score. */
export async function judgeCase(judge: ConfiguredModel, c: JudgeCase, original: string, amended: string): Promise<JudgeOutcome> {
  const { system, prompt } = judgePrompt(c, original, amended);
  const promptChars = system.length + prompt.length;
  let error = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const { object } = await generateObject({
        model: judge.model,
        schema: judgeAnswerSchema,
        system,
        prompt,
        temperature: 0,
        maxRetries: 1,
      });
      return { ok: true, answer: object, attempts: attempt, promptChars };
    } catch (caught) {
      const [firstLine = ""] = (caught as Error).message.split("\n");
      console.error(`skillgate: judge call failed (attempt ${attempt}): ${firstLine.slice(0, 500)}`);
      error = failureMessage(caught);
    }
  }
  return { ok: false, error, attempts: 2, promptChars };
}
