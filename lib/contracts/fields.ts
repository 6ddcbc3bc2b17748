import { z } from "zod";
import { parseWith } from "../validation";
import { skillNameParam } from "../skills/name-schema";

/** Field schemas more than one contract uses. */

/**
 * A version number (or a trial's): positive and bounded, so it always fits the database's
 * integer columns — 2^31 would fail the query instead of the request.
 */
export const versionNumber = z.number().int().min(1).max(1_000_000_000);

/** A positive whole number in a query string or path: text on the wire, an integer once parsed. */
export const positiveIntText = (max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "expected a positive whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** A database id in a path (`/amendments/{id}`, `/evals/runs/{id}`). */
export const idParam = positiveIntText(2_000_000_000);

/** The path of every `/skills/{name}/…` operation. */
export const nameParams = z.object({ name: skillNameParam });
/** The path of every `/…/{id}` operation. */
export const idParams = z.object({ id: idParam });

/**
 * A body that is one item, or a batch of them under `key`: which form was sent decides which
 * schema checks it, so a refusal names the field of that form rather than a union's "Invalid input".
 */
export function parseOneOrBatch<T, K extends string>(value: unknown, key: K, one: z.ZodType<T>, batch: z.ZodType<Record<K, T[]>>): T[] {
  const isBatch = value !== null && typeof value === "object" && key in value;
  return isBatch ? parseWith(batch, value, "InvalidField")[key] : [parseWith(one, value, "InvalidField")];
}

export const sessionIdField = z.string().min(1).max(200).describe("the agent session this belongs to (X-Agent-Session)");

export const isoTime = z.string().describe("an ISO 8601 time");

/** `limit` and `cursor` of a paginated list (docs/api.md#pagination). */
export const pageQuery = z.object({
  limit: positiveIntText(1000).optional().describe("page size, 1–1000 (default 500)"),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, "is not a cursor this API gave out")
    .optional()
    .describe("nextCursor of the previous page"),
});

export const nextCursor = z.string().nullable().describe("pass as cursor for the next page; null on the last");

/** The version a reader gets (docs/learned-skills.md#one-served-version), and why: one answer shape for pin, unpin, label, rollback, promote and every reader. */
export const servedSchema = z
  .strictObject({
    version: z.number().int(),
    why: z.enum(["pinned", "latest", "label"]).describe("pinned: a lead's pin; latest: no pin; label: the reader asked for a label"),
    label: z.string().optional().describe("the label, when why is label"),
  })
  .describe("the version agents get, and why");

/** A proportion with its 95% Wilson interval. */
const rateSchema = z.strictObject({ value: z.number(), low: z.number(), high: z.number() });

/** What the agents did while a skill was loaded (docs/telemetry.md, "Production figures"). */
export const productionSchema = z
  .strictObject({
    prompts: z.number().int().describe("prompts in which it was loaded (for noSkill: prompts with no skill loaded)"),
    toolCalls: z.number().int(),
    toolFailures: z.number().int(),
    failureRate: rateSchema.nullable().describe("toolFailures / toolCalls with its 95% Wilson interval; null with no tool call"),
    rejections: z.number().int().describe("tool calls a person rejected"),
    costUsd: z.number(),
    tokens: z.number().int().describe("input, output, cache-read and cache-creation tokens"),
    medianPromptMs: z.number().int().nullable().describe("median wall time of those prompts; null with none, or for a sum of parts"),
  })
  .describe("tool calls, failures, cost and time while loaded, from the agents' telemetry");

/** Whether one failure rate is above another beyond both intervals; "n too small" below the minimum sample. */
export const comparisonSchema = z.enum(["higher", "lower", "no clear difference", "n too small"]);
