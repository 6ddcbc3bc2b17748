import { generateObject, JSONParseError, NoObjectGeneratedError, RetryError, TypeValidationError } from "ai";
import { z } from "zod";
import { AppError, isAppError, type ErrorCode } from "../errors";
import type { observations } from "@/db/schema";
import { checkStorableText, describeIssue } from "../validation";
import { parseSkillMd } from "../skills/skill-md";
import type { SkillContent } from "../skills/view";
import { failureMessage } from "./failure-message";
import type { ConfiguredModel } from "./model";

/** What the model answers when asked for an amendment (docs/evaluation-and-activation.md#amendments). */
export const proposalSchema = z.object({
  description: z.string().describe("a better description, or the current one unchanged"),
  body: z.string().describe("the full new Markdown body of the skill"),
  rationale: z.string().describe("which failures this change addresses, and how"),
});
export type Proposal = z.infer<typeof proposalSchema>;

/**
 * How long a person waits on the page for the model's proposal before it is given up on, retries
 * included, unless the configured model says otherwise. Long enough for a slow model to write a
 * whole skill body, short enough that a hung provider is not mistaken for a slow one.
 */
export const PROPOSAL_TIMEOUT_MS = 60_000;

/** The code a failed proposal answers with: a failure of the model, not of the request (502, as a gateway's upstream). */
export const PROPOSAL_FAILED: ErrorCode = "ModelFailed";

const MISFIT = "the model's answer did not fit: ";

/** A recorded run the model learns from. */
type RecordedRun = Pick<typeof observations.$inferSelect, "outcome" | "errorType" | "task" | "feedback">;

/** A change proposed earlier that the model writes again against the current version: its rationale and what it proposed. */
export interface EarlierChange {
  id: number;
  baseVersion: number;
  rationale: string;
  description: string | null;
  body: string | null;
}

/** What an amendment proposes: a new body, a description where it changes, and why. */
export interface ProposedChange {
  description?: string;
  body: string;
  rationale: string;
}

/**
 * Asks the model for a change to the skill's `current` text that addresses its recorded failures;
 * with `earlier`, the model writes that change again for the current text (it no longer applies
 * to it as it stands). An answer that is no storable text is the model's misfit.
 */
export async function askForChange(
  model: ConfiguredModel,
  current: SkillContent,
  failures: RecordedRun[],
  earlier?: EarlierChange,
): Promise<ProposedChange> {
  const proposal = await askForProposal(
    model,
    "You improve agent skills: written procedures an AI agent follows. Change only what the recorded failures show is wrong or missing.",
    [
      "## Current SKILL.md",
      current.frontmatter + current.body,
      "",
      "## Recent failures",
      ...(failures.length === 0 ? ["(none recorded)"] : failures.map(failureLine)),
      ...(earlier ? earlierLines(earlier, current.version) : []),
    ].join("\n"),
  );
  try {
    checkStorableText(proposal);
  } catch (error) {
    throw proposalRefused(error) ?? error;
  }
  const description = (parseSkillMd(current.frontmatter + current.body).fields as { description: string }).description;
  const proposed = proposal.description.trim();
  return { description: proposed === description ? undefined : proposed, body: proposal.body, rationale: proposal.rationale };
}

function failureLine(f: RecordedRun, i: number): string {
  return `${i + 1}. [${f.outcome}${f.errorType ? `, ${f.errorType}` : ""}] ${f.task}${f.feedback ? `\n   feedback: ${f.feedback}` : ""}`;
}

function earlierLines(earlier: EarlierChange, version: number): string[] {
  return [
    "",
    `## A change proposed earlier (amendment #${earlier.id}, written against v${earlier.baseVersion})`,
    `It no longer applies to v${version}, which changed since. Write its intent again for the current SKILL.md above, keeping what changed since.`,
    `Its rationale: ${earlier.rationale}`,
    ...(earlier.description === null ? [] : [`Its description: ${earlier.description}`]),
    ...(earlier.body === null ? [] : ["Its body:", earlier.body]),
  ];
}

/**
 * Asks the model for a proposal. Whatever goes wrong becomes an AppError a person can act on:
 * an answer that does not fit says where, a model that hangs is given up on (and its call
 * cancelled), and a provider's refusal is said in words of our own; its own text goes to the log only.
 */
export async function askForProposal(model: ConfiguredModel, system: string, prompt: string): Promise<Proposal> {
  const timeoutMs = model.timeoutMs ?? PROPOSAL_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${timeoutMs} ms`));
      controller.abort();
    }, timeoutMs);
  });
  try {
    const call = generateObject({
      model: model.model,
      schema: proposalSchema,
      temperature: 0,
      system,
      prompt,
      abortSignal: controller.signal,
    });
    // A provider that ignores the abort must not hold the page: the time-out answers either way.
    const { object } = await Promise.race([call, timedOut]);
    return object;
  } catch (error) {
    const [firstLine = ""] = String((error as Error).message).split("\n");
    console.error(`skillgate: amendment generation failed: ${firstLine.slice(0, 500)}`);
    throw new AppError(PROPOSAL_FAILED, proposalFailure(error, controller.signal.aborted ? timeoutMs : null));
  } finally {
    clearTimeout(timer);
  }
}

/** What a person reads when the model gave no usable proposal; `timedOutAfterMs` when it was given up on. */
function proposalFailure(error: unknown, timedOutAfterMs: number | null): string {
  if (timedOutAfterMs !== null) return `the model did not answer within ${timedOutAfterMs / 1000} s; try again`;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (NoObjectGeneratedError.isInstance(cause)) return MISFIT + misfitOf(cause);
  return failureMessage(cause);
}

/** Where the answer missed the schema: its fields, or that it was no JSON at all. */
function misfitOf(error: NoObjectGeneratedError): string {
  const cause = error.cause;
  if (TypeValidationError.isInstance(cause)) {
    const issues = (cause.cause as { issues?: z.core.$ZodIssue[] } | undefined)?.issues ?? [];
    if (issues.length > 0) return issues.slice(0, 3).map(describeIssue).join("; ");
    return "it is not an object with a description, a body and a rationale";
  }
  if (JSONParseError.isInstance(cause)) return error.text?.trim() ? "it is not JSON" : "it was empty";
  if (error.finishReason === "length") return "it was cut off at the output limit";
  return "it held no JSON object";
}

/** A proposal that parsed but is no valid amendment (its text is not a valid skill, say) is the model's misfit too. */
export function proposalRefused(error: unknown): AppError | null {
  const misfitCodes: ErrorCode[] = ["InvalidSkill", "InvalidField", "InvalidUtf8"];
  if (isAppError(error) && misfitCodes.includes(error.code)) return new AppError(PROPOSAL_FAILED, MISFIT + error.message);
  return null;
}
