import { z } from "zod";
import { skillNameProblem } from "../skills/name";
import { defineOperation, json } from "./operation";
import { AMENDMENT_STATES } from "../evolution/amendment-states";
import {
  idParams,
  isoTime,
  nameParams,
  nextCursor,
  pageQuery,
  parseOneOrBatch,
  positiveIntText,
  servedSchema,
  sessionIdField,
  versionNumber,
} from "./fields";
import { skillNameField } from "../skills/name-schema";

/** Observations, amendments and judged evaluations (docs/evaluation-and-activation.md). */

export const OUTCOMES = ["success", "failure", "partial"] as const;

const toolNames = z.array(z.string().min(1).max(200)).max(200);

export const observationBody = z.strictObject({
  skill: skillNameField
    .refine((name) => skillNameProblem(name) === null, { message: "is not a skill name (lowercase letters, digits, single hyphens)" })
    .describe("the skill that ran"),
  version: versionNumber.optional().describe("the version that ran; the current one when omitted"),
  task: z
    .string()
    .trim()
    .min(1, "is empty: say what the agent was asked to do")
    .max(20_000)
    .describe("what the agent was asked to do, verbatim"),
  category: z.string().trim().min(1).max(100).describe("a short class of task, e.g. bugfix"),
  outcome: z.enum(OUTCOMES).describe("partial counts as a failure when test cases are drawn"),
  score: z.number().min(0).max(1).optional().describe("how well it went, 0–1"),
  errorType: z.string().min(1).max(200).optional(),
  durationMs: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600 * 1000)
    .optional(),
  toolsCalled: toolNames.optional(),
  failedToolCalls: toolNames.optional(),
  feedback: z.string().max(20_000).optional().describe("what the person said about the result"),
  sessionId: sessionIdField.optional(),
});
export type ObservationInput = z.infer<typeof observationBody>;

export const observationBatch = z.strictObject({
  observations: z.array(observationBody).min(1, "send at least one observation").max(500, "send at most 500 observations at a time"),
});

/** One observation, or `{"observations": [...]}`: errors name the field of the form that was sent. */
export function parseObservations(value: unknown): ObservationInput[] {
  return parseOneOrBatch(value, "observations", observationBody, observationBatch);
}

export const recordObservations = defineOperation({
  operationId: "recordObservations",
  method: "POST",
  path: "/api/v1/observations",
  tag: "evolution",
  summary: 'Record runs of skills: one observation, or {"observations": [...]} up to 500, all or nothing',
  scope: "write",
  body: { schema: z.union([observationBody, observationBatch]), maxBytes: 8 * 1024 * 1024, parse: parseObservations },
  responses: { 201: json(z.strictObject({ ids: z.array(z.number().int()) }), "the observations' ids, in order") },
  errors: ["SkillNotFound"],
});

export const observationSchema = z.strictObject({
  id: z.number().int(),
  skillName: z.string(),
  version: z.number().int(),
  task: z.string(),
  category: z.string(),
  outcome: z.enum(OUTCOMES),
  score: z.number().nullable(),
  errorType: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  toolsCalled: z.array(z.string()).nullable(),
  failedToolCalls: z.array(z.string()).nullable(),
  feedback: z.string().nullable(),
  sessionId: z.string().nullable(),
  source: z.enum(["api", "telemetry"]).describe("api: a run someone recorded; telemetry: a prompt whose tools failed while it was loaded"),
  promptId: z.string().nullable().describe("the agent's prompt.id, for a telemetry observation"),
  createdAt: isoTime,
});

export const observationQuery = z.object({
  outcome: z.enum(OUTCOMES).optional(),
  category: z.string().min(1).max(100).optional(),
  version: positiveIntText(1_000_000_000).optional().describe("the version that ran"),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: positiveIntText(500).optional().describe("1–500 (default 100)"),
  source: z.enum(["api", "telemetry"]).optional().describe("only recorded runs, or only failures from the agents' telemetry"),
});

export const listObservations = defineOperation({
  operationId: "listObservations",
  method: "GET",
  path: "/api/v1/skills/{name}/observations",
  tag: "evolution",
  summary: "The skill's observations, newest first",
  scope: "read",
  params: nameParams,
  query: observationQuery,
  responses: { 200: json(z.strictObject({ observations: z.array(observationSchema) }), "newest first") },
  errors: ["InvalidName"],
});

export const amendmentBody = z.strictObject({
  description: z.string().optional().describe("the new description, if it changes"),
  body: z.string().optional().describe("the new body, if it changes"),
  rationale: z.string().max(5000).describe("why this change should do better"),
});

const pending = z.strictObject({ id: z.number().int(), status: z.literal("pending") });

export const proposeAmendment = defineOperation({
  operationId: "proposeAmendment",
  method: "POST",
  path: "/api/v1/skills/{name}/amendments",
  tag: "evolution",
  summary: "Propose an amendment (a new body and/or description, with a rationale); it has no authority until evaluated",
  scope: "write",
  params: nameParams,
  body: { schema: amendmentBody },
  responses: { 201: json(pending, "proposed") },
  errors: ["InvalidName", "SkillNotFound", "InvalidSkill"],
});

export const VERDICTS = ["improved", "regressed", "neutral", "inconclusive"] as const;

const decisionSchema = z.strictObject({ by: z.string(), at: isoTime, reason: z.string().nullable() });

export const amendmentSchema = z.strictObject({
  id: z.number().int(),
  skill: z.string(),
  status: z
    .enum(AMENDMENT_STATES)
    .describe(
      "pending → evaluating → promoted | awaiting-approval | evaluated; awaiting-approval → promoted | rejected; re-proposed when out of date → superseded",
    ),
  verdict: z.enum(VERDICTS).nullable().describe("of its latest finished evaluation"),
  delta: z.number().nullable().describe("of its latest finished evaluation: mean of amended − original case scores"),
  createdAt: isoTime,
  evaluatedAt: isoTime.nullable(),
  decision: z.enum(["approved", "rejected", "overridden"]).nullable().describe("a lead's latest decision on it"),
  decidedBy: z.string().nullable().describe("who made that decision"),
  decidedAt: isoTime.nullable(),
  reason: z.string().nullable().describe("the reason given with that decision"),
  rejection: decisionSchema.nullable().describe("its rejection, kept after any later override"),
  author: z.string().describe("who proposed it"),
  outdated: z
    .boolean()
    .describe(
      "not decided yet, and the skill has moved past the version it was written against: it cannot be approved or promoted, only re-proposed",
    ),
  base: z.number().int().describe("the version of the skill it was written against"),
  current: z.number().int().nullable().describe("the skill's latest version now; null when the skill is gone"),
  reproposedFrom: z.number().int().nullable().describe("the out-of-date amendment this one was re-proposed from"),
  supersededBy: z.number().int().nullable().describe("the amendment that replaced this one when it was re-proposed"),
  origin: z.enum(["person", "agent", "generated"]),
  rationale: z.string(),
  description: z.string().nullable().describe("the proposed description; null when it keeps the current one"),
  body: z.string().nullable().describe("the proposed body; null when it keeps the current one"),
  evaluation: z
    .strictObject({
      id: z.number().int(),
      status: z.enum(["running", "finished", "failed"]),
      verdict: z.enum(VERDICTS).nullable(),
      promotedVersion: z.number().int().nullable(),
    })
    .nullable()
    .describe("its latest evaluation, running or not"),
});

const amendmentList = z.strictObject({ amendments: z.array(amendmentSchema), nextCursor });

export const listAmendments = defineOperation({
  // The operation id it has always had: clients generated from the document keep calling the same list.
  operationId: "listAmendments",
  method: "GET",
  path: "/api/v1/skills/{name}/amendments",
  tag: "evolution",
  summary: "The skill's amendments, newest first, with their state, latest verdict and decisions",
  scope: "read",
  params: nameParams,
  query: pageQuery,
  responses: { 200: json(amendmentList, "newest first") },
  errors: ["InvalidName"],
});

export const listTeamAmendments = defineOperation({
  operationId: "listTeamAmendments",
  method: "GET",
  path: "/api/v1/amendments",
  tag: "evolution",
  summary: "The team's amendments, newest first, by state and skill: ?status=awaiting-approval is a lead's queue",
  scope: "read",
  query: pageQuery.extend({
    status: z.enum(AMENDMENT_STATES).optional().describe("only amendments in this state"),
    skill: skillNameField
      .refine((name) => skillNameProblem(name) === null, { message: "is not a skill name (lowercase letters, digits, single hyphens)" })
      .optional()
      .describe("only amendments to this skill"),
  }),
  responses: { 200: json(amendmentList, "newest first") },
  errors: [],
});

export const generateAmendment = defineOperation({
  operationId: "generateAmendment",
  longWork: true,
  method: "POST",
  path: "/api/v1/skills/{name}/amendments/generate",
  tag: "evolution",
  summary: "The configured model proposes an amendment from the skill's recent failures",
  scope: "write",
  params: nameParams,
  responses: { 201: json(pending, "proposed by the model") },
  errors: ["InvalidName", "SkillNotFound", "Unprocessable", "NoModel", "ModelFailed"],
});

const scores = z.strictObject({ correctness: z.number(), completeness: z.number(), adherence: z.number() });

export const evaluationReportSchema = z.strictObject({
  id: z.number().int(),
  amendmentId: z.number().int(),
  skill: z.string(),
  status: z.enum(["running", "finished", "failed"]),
  verdict: z.enum(VERDICTS).nullable(),
  delta: z.number().nullable().describe("mean of amended − original case scores"),
  improved: z.number().int(),
  regressed: z.number().int(),
  unchanged: z.number().int(),
  failedToJudge: z.number().int(),
  casesTotal: z.number().int(),
  casesDone: z.number().int(),
  modelId: z.string(),
  promptVersion: z.string(),
  promotedVersion: z.number().int().nullable(),
  promotionNote: z.string().nullable(),
  error: z.string().nullable(),
  note: z.string().describe("judged comparison, not a re-execution"),
  patch: z.string().nullable().describe("for built-in and file skills: the change as a patch to apply in the repository"),
  cases: z.array(
    z.strictObject({
      observationId: z.number().int(),
      outcome: z.enum(OUTCOMES),
      task: z.string(),
      status: z.enum(["pending", "judged", "failed-to-judge"]),
      original: scores.nullable(),
      amended: scores.nullable(),
      change: z.enum(["improved", "regressed", "unchanged"]).nullable(),
      rationale: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

export const evaluateAmendment = defineOperation({
  operationId: "evaluateAmendment",
  longWork: true,
  method: "POST",
  path: "/api/v1/amendments/{id}/evaluate",
  tag: "evolution",
  summary: "Judge the amendment against the original on the skill's failure-weighted history; promotes on improved when the team allows",
  description: "A judged comparison, not a re-execution. Answers when the evaluation is done.",
  scope: "write",
  params: idParams,
  responses: { 200: json(evaluationReportSchema, "the finished evaluation") },
  errors: ["AmendmentNotFound", "AmendmentStateChanged", "NoModel", "VersionConflict"],
});

export const promoteAmendmentBody = z.strictObject({
  reason: z
    .string()
    .max(5000)
    .optional()
    .describe("required for a manual override: promoting an amendment that is pending, evaluated or rejected"),
});

export const promoteAmendment = defineOperation({
  operationId: "promoteAmendment",
  method: "POST",
  path: "/api/v1/amendments/{id}/promote",
  tag: "evolution",
  summary:
    "Promote by hand (lead or admin key): an amendment awaiting approval is approved; one pending, evaluated or rejected is a manual override that needs a written reason",
  scope: "write",
  params: idParams,
  body: { schema: promoteAmendmentBody },
  responses: {
    200: json(
      z.strictObject({
        name: z.string(),
        version: z.number().int(),
        evaluationId: z.number().int().nullable(),
        override: z.boolean(),
        served: servedSchema.describe("what agents get now: the promoted version, or the one a lead pinned"),
      }),
      "the skill's new version",
    ),
  },
  errors: ["AmendmentNotFound", "ReasonRequired", "AmendmentStateChanged", "AmendmentOutdated", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const approveAmendment = defineOperation({
  operationId: "approveAmendment",
  method: "POST",
  path: "/api/v1/amendments/{id}/approve",
  tag: "evolution",
  summary: "A lead approves an amendment judged improved while auto-promotion is off: it becomes the skill's next version",
  scope: "admin",
  params: idParams,
  responses: {
    200: json(
      z.strictObject({
        id: z.number().int(),
        name: z.string(),
        version: z.number().int(),
        evaluationId: z.number().int().nullable(),
        served: servedSchema.describe("what agents get now: the approved version, or the one a lead pinned"),
      }),
      "the skill's new version",
    ),
  },
  errors: ["AmendmentNotFound", "AmendmentStateChanged", "AmendmentOutdated", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const rejectAmendmentBody = z.strictObject({ reason: z.string().min(1).max(5000).describe("why it is not going live") });

export const rejectAmendment = defineOperation({
  operationId: "rejectAmendment",
  method: "POST",
  path: "/api/v1/amendments/{id}/reject",
  tag: "evolution",
  summary: "A lead rejects an amendment awaiting approval, with a reason recorded in the history",
  scope: "admin",
  params: idParams,
  body: { schema: rejectAmendmentBody },
  responses: { 200: json(z.strictObject({ id: z.number().int(), status: z.literal("rejected") }), "rejected") },
  errors: ["AmendmentNotFound", "AmendmentStateChanged", "ReasonRequired"],
});

export const reproposeAmendmentBody = z.strictObject({
  regenerate: z
    .boolean()
    .optional()
    .describe("have the configured model write the change again against the current version, from the skill's recorded failures"),
});

export const reproposeAmendment = defineOperation({
  operationId: "reproposeAmendment",
  longWork: true,
  method: "POST",
  path: "/api/v1/amendments/{id}/repropose",
  tag: "evolution",
  summary:
    "Re-propose an out-of-date amendment against the skill's current version: its change merged three-way onto the current text, or written again by the model; it becomes superseded by the new pending one",
  description:
    'A change that does not apply cleanly (the same lines, or the description, changed since) is a 409 MergeConflict naming them, and nothing is written; send {"regenerate": true} to have the model write it again.',
  scope: "write",
  params: idParams,
  body: { schema: reproposeAmendmentBody },
  responses: {
    201: json(
      z.strictObject({
        id: z.number().int().describe("the new amendment"),
        status: z.literal("pending"),
        base: z.number().int().describe("the version it is written against: the skill's latest"),
        reproposedFrom: z.number().int().describe("the out-of-date amendment, now superseded"),
      }),
      "re-proposed",
    ),
  },
  errors: [
    "AmendmentNotFound",
    "AmendmentStateChanged",
    "NotOutdated",
    "MergeConflict",
    "SkillNotFound",
    "InvalidSkill",
    "NoModel",
    "ModelFailed",
  ],
});

export const getEvaluation = defineOperation({
  operationId: "getEvaluation",
  method: "GET",
  path: "/api/v1/evaluations/{id}",
  tag: "evolution",
  summary: "An evaluation: progress while it runs, then the verdict and every case's per-dimension scores",
  scope: "read",
  params: idParams,
  responses: { 200: json(evaluationReportSchema, "the evaluation") },
  errors: ["EvaluationNotFound"],
});

/** A tool's name as the agent reports it; the skill page's Mute button sends the same. */
export const toolNameParam = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]+$/, "is not a tool name (no control characters)")
  .describe("a tool's name as the agent reports it: Bash, Read, mcp__server__tool");
const toolParams = z.object({ name: nameParams.shape.name, tool: toolNameParam });
const mutedToolsSchema = z.strictObject({
  name: z.string(),
  mutedTools: z.array(z.string()).describe("tools whose failures while it is loaded make no observation, in name order"),
});

export const listMutedTools = defineOperation({
  operationId: "listMutedTools",
  method: "GET",
  path: "/api/v1/skills/{name}/muted-tools",
  tag: "evolution",
  summary: "Tools whose failures while the skill is loaded make no observation of it",
  scope: "read",
  params: nameParams,
  responses: { 200: json(mutedToolsSchema, "in name order") },
  errors: ["InvalidName", "SkillNotFound"],
});

export const muteTool = defineOperation({
  operationId: "muteTool",
  method: "PUT",
  path: "/api/v1/skills/{name}/muted-tools/{tool}",
  tag: "evolution",
  summary:
    "Mute a tool for a skill (lead or admin key): its failures while the skill is loaded (say, Bash running the agent's own tests) no longer make observations. Figures still count them",
  scope: "admin",
  params: toolParams,
  responses: { 200: json(mutedToolsSchema, "muted (muting again changes nothing)") },
  errors: ["InvalidName", "SkillNotFound"],
});

export const unmuteTool = defineOperation({
  operationId: "unmuteTool",
  method: "DELETE",
  path: "/api/v1/skills/{name}/muted-tools/{tool}",
  tag: "evolution",
  summary: "Unmute a tool for a skill (lead or admin key): its failures make observations again",
  scope: "admin",
  params: toolParams,
  responses: { 200: json(mutedToolsSchema, "unmuted (a tool that was not muted changes nothing)") },
  errors: ["InvalidName", "SkillNotFound"],
});

export const EVOLUTION_OPERATIONS = [
  recordObservations,
  listObservations,
  listMutedTools,
  muteTool,
  unmuteTool,
  proposeAmendment,
  listAmendments,
  listTeamAmendments,
  generateAmendment,
  evaluateAmendment,
  promoteAmendment,
  approveAmendment,
  rejectAmendment,
  reproposeAmendment,
  getEvaluation,
];
