import { z } from "zod";

/** Request contracts, shared by the route handlers and the OpenAPI document. */

/**
 * A version number (or a trial's): positive and bounded, so it always fits the database's
 * integer columns — 2^31 would fail the query instead of the request.
 */
export const versionNumber = z.number().int().min(1).max(1_000_000_000);

export const syncFileSchema = z.strictObject({
  path: z.string().describe("<folder>/<file>, e.g. my-skill/SKILL.md or my-skill/scripts/run.sh"),
  content: z.string(),
  encoding: z.enum(["utf8", "base64"]).optional().describe("base64 for binary files; utf8 when omitted"),
});

export const syncBodySchema = z.strictObject({
  files: z.array(syncFileSchema).max(100_000),
});

export const lintBodySchema = z.strictObject({
  description: z.string(),
});

const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "expected a positive whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

export const listingQuerySchema = z.object({
  cap: positiveInt(1_000_000).optional(),
  descMax: positiveInt(1024).optional(),
  format: z.enum(["text", "json"]).optional(),
});

export const viewQuerySchema = z.object({
  version: positiveInt(1_000_000_000).optional(),
});

export const pageQuerySchema = z.object({
  limit: positiveInt(1000).optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, "is not a cursor this API gave out")
    .optional(),
});

const status = z.enum(["draft", "active"]);
const reason = z.string().max(2000);

export const createSkillSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  body: z.string(),
  status: status.optional(),
  reason: reason.optional(),
  sessionId: z.string().min(1).max(200).optional(),
});

export const updateSkillSchema = z.strictObject({
  description: z.string().optional(),
  body: z.string().optional(),
  expectedVersion: versionNumber.optional(),
  reason: reason.optional(),
});

export const rollbackSchema = z.strictObject({ toVersion: versionNumber });

export const forkSchema = z.strictObject({ name: z.string(), status: status.optional() });

export const verifySchema = z.strictObject({
  tier: z.enum(["reviewed", "verified"]),
  report: z.record(z.string(), z.unknown()).optional(),
  expectedVersion: versionNumber.optional(),
});

export const diffQuerySchema = z.object({
  from: positiveInt(1_000_000_000),
  to: positiveInt(1_000_000_000),
});

export const importQuerySchema = z.object({ origin: z.string().min(1).max(500).optional() });

/** A ledger request: the action and whichever of its fields it needs; the ledger checks which (§7). */
export const ledgerBodySchema = z.strictObject({
  action: z.string(),
  text: z.string().optional(),
  falsifiedBy: z.string().optional(),
  id: z.string().optional(),
  verdict: z.string().optional(),
  evidence: z.string().optional(),
  reason: z.string().optional(),
  skill: z.string().optional(),
});

export const observationQuerySchema = z.object({
  outcome: z.enum(["success", "failure", "partial"]).optional(),
  category: z.string().min(1).max(100).optional(),
  version: positiveInt(1_000_000_000).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: positiveInt(500).optional(),
});

export const amendmentSchema = z.strictObject({
  description: z.string().optional(),
  body: z.string().optional(),
  rationale: z.string().max(5000),
});

export const promoteAmendmentSchema = z.strictObject({ reason: z.string().max(5000).optional() });

export const idParamSchema = positiveInt(2_000_000_000);
