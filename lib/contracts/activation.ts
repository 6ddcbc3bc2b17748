import { z } from "zod";
import { skillNameProblem } from "../skills/name";
import { defineOperation, json } from "./operation";
import { idParam, idParams, isoTime, parseOneOrBatch, productionSchema, sessionIdField, versionNumber } from "./fields";
import { skillNameField } from "../skills/name-schema";
import { promptSetBody, promptSetReplaceBody } from "../activation/prompt-set-input";

/** Activation evals and real usage (docs/evaluation-and-activation.md#real-usage). */

/** Prompt sets and runs carry thousands of cases. */
const EIGHT_MIB = 8 * 1024 * 1024;

const promptSetSchema = z.strictObject({
  name: z.string(),
  cases: z.array(z.strictObject({ id: z.string(), prompt: z.string(), expected: z.array(z.string()), expectNone: z.boolean() })),
});
const storedPromptSet = promptSetSchema.extend({ updatedAt: isoTime });

export const listPromptSets = defineOperation({
  operationId: "listPromptSets",
  method: "GET",
  path: "/api/v1/evals/prompt-sets",
  tag: "activation",
  summary: "The team's prompt sets",
  scope: "read",
  responses: { 200: json(z.strictObject({ promptSets: z.array(storedPromptSet) }), "by name") },
  errors: [],
});

export const savePromptSet = defineOperation({
  operationId: "savePromptSet",
  method: "POST",
  path: "/api/v1/evals/prompt-sets",
  tag: "activation",
  summary: "Create or replace a prompt set {name, cases: [{id, prompt, expected, expectNone}]}",
  scope: "write",
  body: { schema: promptSetBody, maxBytes: EIGHT_MIB },
  responses: { 201: json(promptSetSchema, "the set as stored") },
  errors: [],
});

export const fromTelemetryBody = z.strictObject({
  name: promptSetBody.shape.name,
  days: z.number().int().min(1, "must be at least 1").max(3650).default(30).describe("prompts of the last N days (default 30)"),
  limit: z
    .number()
    .int()
    .min(1, "must be at least 1")
    .max(1000)
    .default(200)
    .describe("at most this many cases, newest first (default 200)"),
});

export const promptSetFromTelemetry = defineOperation({
  operationId: "promptSetFromTelemetry",
  method: "POST",
  path: "/api/v1/evals/prompt-sets/from-telemetry",
  tag: "activation",
  summary: "Create or replace a prompt set from the prompts agents reported: each expects the skills activated for it",
  description:
    "Needs stored prompt texts: the team's storePrompts setting on, and agents that send them (Claude Code: OTEL_LOG_USER_PROMPTS=1). Prompts that activated skills become P cases, those that activated none G cases.",
  scope: "write",
  body: { schema: fromTelemetryBody },
  responses: { 201: json(promptSetSchema, "the set as stored") },
  errors: ["Unprocessable"],
});

const promptSetParams = z.object({ name: z.string().max(200).describe("the prompt set's name") });

export const getPromptSet = defineOperation({
  operationId: "getPromptSet",
  method: "GET",
  path: "/api/v1/evals/prompt-sets/{name}",
  tag: "activation",
  summary: "One prompt set, in the JSON form it is imported in",
  scope: "read",
  params: promptSetParams,
  responses: { 200: json(storedPromptSet, "the set") },
  errors: ["PromptSetNotFound"],
});

export const replacePromptSet = defineOperation({
  operationId: "replacePromptSet",
  method: "PUT",
  path: "/api/v1/evals/prompt-sets/{name}",
  tag: "activation",
  summary: "Replace a prompt set's cases",
  scope: "write",
  params: promptSetParams,
  body: { schema: promptSetReplaceBody, maxBytes: EIGHT_MIB },
  responses: { 200: json(promptSetSchema, "the set as stored") },
  errors: [],
});

export const deletePromptSet = defineOperation({
  operationId: "deletePromptSet",
  method: "DELETE",
  path: "/api/v1/evals/prompt-sets/{name}",
  tag: "activation",
  summary: "Delete a prompt set; runs made with it keep their own copy of the cases",
  scope: "write",
  params: promptSetParams,
  responses: { 200: json(z.strictObject({ name: z.string(), deleted: z.literal(true) }), "deleted") },
  errors: ["PromptSetNotFound"],
});

export const ACTIVATORS = ["lexical", "model", "import"] as const;
export const RUN_STATUSES = ["queued", "running", "finished", "failed", "cancelled"] as const;

export const runBody = z.strictObject({
  promptSet: z
    .object({ name: z.string(), cases: z.array(z.unknown()).optional() })
    .describe("a saved set by name, or a set given inline with its cases"),
  activator: z.enum(ACTIVATORS, { message: 'activator must be "model", "lexical" or "import"' }),
  trials: z.number().int().min(1, "trials must be at least 1").max(20).optional().describe("repeats of each case, 1–20 (default 1)"),
  results: z
    .array(z.strictObject({ id: z.string(), loaded: z.array(z.string()), trial: z.number().int().min(1).max(20).optional() }))
    .optional()
    .describe('for "import": the skills each case loaded in an external harness'),
});
export type RunRequest = z.infer<typeof runBody>;

const rate = z.number().nullable();
export const metricsSchema = z.strictObject({
  activationRate: rate,
  byClass: z.strictObject({ D: rate, P: rate, G: rate }),
  falseTriggerRate: rate,
  perSkill: z.record(z.string(), z.strictObject({ expected: z.number().int(), loaded: z.number().int(), recall: rate })),
  wrongSelections: z.number().int(),
});

const runSummary = {
  id: z.number().int(),
  status: z.enum(RUN_STATUSES),
  activator: z.enum(ACTIVATORS),
  modelId: z.string().nullable(),
  promptSet: z.string(),
  trials: z.number().int(),
  caseRuns: z.number().int(),
  done: z.number().int(),
  createdAt: isoTime,
};

export const runReportSchema = z.strictObject({
  ...runSummary,
  finishedAt: isoTime.nullable(),
  error: z.string().nullable(),
  listingText: z.string().describe("the listing the run measured"),
  metrics: metricsSchema.optional().describe("once finished"),
  cases: z.array(z.strictObject({ id: z.string(), prompt: z.string(), expected: z.array(z.string()), expectNone: z.boolean() })),
  results: z.array(z.strictObject({ id: z.string(), trial: z.number().int(), loaded: z.array(z.string()), passed: z.boolean() })),
});

export const startRun = defineOperation({
  operationId: "startRun",
  longWork: true,
  method: "POST",
  path: "/api/v1/evals/runs",
  tag: "activation",
  summary: "An activation run: lexical (BM25 over the listing), model (the listing as system prompt, one skill_view tool) or import",
  description:
    "lexical and import runs answer finished; a model run answers at once and runs in the background (poll GET /api/v1/evals/runs/{id}).",
  scope: "write",
  body: { schema: runBody, maxBytes: EIGHT_MIB },
  responses: { 201: json(runReportSchema, "the run") },
  errors: ["PromptSetNotFound", "NoModel"],
});

export const listRuns = defineOperation({
  operationId: "listRuns",
  method: "GET",
  path: "/api/v1/evals/runs",
  tag: "activation",
  summary: "The team's activation runs, newest first",
  scope: "read",
  responses: {
    200: json(z.strictObject({ runs: z.array(z.strictObject({ ...runSummary, metrics: metricsSchema.nullable() })) }), "newest first"),
  },
  errors: [],
});

export const getRun = defineOperation({
  operationId: "getRun",
  method: "GET",
  path: "/api/v1/evals/runs/{id}",
  tag: "activation",
  summary: "A run: status, progress, results so far, and metrics once finished",
  scope: "read",
  params: idParams,
  responses: { 200: json(runReportSchema, "the run") },
  errors: ["RunNotFound"],
});

export const cancelRun = defineOperation({
  operationId: "cancelRun",
  method: "POST",
  path: "/api/v1/evals/runs/{id}/cancel",
  tag: "activation",
  summary: "Stop a running run; what it measured so far is kept",
  scope: "write",
  params: idParams,
  responses: { 200: json(z.strictObject({ id: z.number().int(), status: z.literal("cancelled") }), "cancelled") },
  errors: ["RunNotFound", "RunNotRunning"],
});

const side = z.strictObject({ passed: z.number().int(), runs: z.number().int(), loaded: z.array(z.string()) }).nullable();
const comparedRun = z.strictObject({
  id: z.number().int(),
  status: z.enum(RUN_STATUSES),
  activator: z.enum(ACTIVATORS),
  modelId: z.string().nullable(),
  createdAt: isoTime,
  metrics: metricsSchema.nullable(),
  listingText: z.string(),
});

export const compareRuns = defineOperation({
  operationId: "compareRuns",
  method: "GET",
  path: "/api/v1/evals/compare",
  tag: "activation",
  summary: "Two runs side by side, case by case",
  scope: "read",
  query: z.object({ a: idParam.describe("the earlier run"), b: idParam.describe("the later run") }),
  responses: {
    200: json(
      z.strictObject({
        a: comparedRun,
        b: comparedRun,
        cases: z.array(
          z.strictObject({
            id: z.string(),
            class: z.enum(["D", "P", "G"]),
            prompt: z.string(),
            expected: z.array(z.string()),
            expectNone: z.boolean(),
            a: side,
            b: side,
            change: z.enum(["better", "worse", "same", "only-a", "only-b"]),
          }),
        ),
      }),
      "both runs and every case",
    ),
  },
  errors: ["RunNotFound"],
});

export const usageReportSchema = z.strictObject({
  skills: z.array(
    z.strictObject({
      name: z.string(),
      views7d: z.number().int(),
      views30d: z.number().int(),
      lastViewedAt: isoTime.nullable(),
      sessions: z.number().int(),
      activations: z
        .strictObject({ proactive: z.number().int(), slash: z.number().int(), nested: z.number().int() })
        .describe("activations the agents' telemetry reported in 30 days, by who chose the skill"),
      people: z.number().int().describe("people whose agents activated it in 30 days"),
      typedOnly: z.boolean().describe("activated only by people typing /name: its description does not make the model choose it"),
      proactivePer100Prompts: z.number().nullable().describe("proactive activations per 100 of the team's prompts in 30 days"),
      production: productionSchema,
      loadedThenFailing: z
        .boolean()
        .describe("tools fail more often while it is loaded than in prompts with no skill, beyond both 95% intervals"),
      costly: z.boolean().describe("its prompts cost at least twice what prompts with no skill loaded cost"),
    }),
  ),
  neverLoaded: z.array(z.string()).describe("listed skills no session loaded and no agent activated in 30 days"),
  unnamed: z.number().int().describe("activations of skills whose name the agent hid (custom_skill; set OTEL_LOG_TOOL_DETAILS=1)"),
  outsideRegistry: z
    .array(z.strictObject({ name: z.string(), activations: z.number().int() }))
    .describe("names agents activated that the catalog does not hold, most activated first"),
  prompts: z.number().int().describe("prompts the agents reported in 30 days"),
  production: z
    .strictObject({
      total: productionSchema,
      noSkill: productionSchema.describe("prompts in which no skill was loaded: the baseline"),
      beforeSkill: productionSchema.describe("what ran before the first skill was loaded, in prompts that loaded one"),
      outsideRegistry: productionSchema.describe("skills the catalog does not hold"),
    })
    .describe("30 days; the skills' toolCalls, toolFailures, rejections, costUsd and tokens plus these three parts add up to total"),
  coLoaded: z
    .array(z.strictObject({ a: z.string(), b: z.string(), sessions: z.number().int(), share: z.number() }))
    .describe("pairs loaded together in one session"),
});

export const getUsage = defineOperation({
  operationId: "getUsage",
  method: "GET",
  path: "/api/v1/usage",
  tag: "activation",
  summary:
    "Real usage from views and the agents' telemetry: per skill, never-loaded skills, co-loaded pairs, unnamed and unregistered activations",
  scope: "read",
  responses: { 200: json(usageReportSchema, "the last 30 days") },
  errors: [],
});

export const harnessViewBody = z.strictObject({
  skill: skillNameField.refine((name) => skillNameProblem(name) === null, { message: "is not a skill name" }),
  sessionId: sessionIdField,
  version: versionNumber.optional(),
});
export const harnessViewBatch = z.strictObject({
  views: z.array(harnessViewBody).min(1, "send at least one view").max(1000, "send at most 1000 views at a time"),
});
export type HarnessView = z.infer<typeof harnessViewBody>;

export function parseHarnessViews(value: unknown): HarnessView[] {
  return parseOneOrBatch(value, "views", harnessViewBody, harnessViewBatch);
}

export const recordViews = defineOperation({
  operationId: "recordViews",
  method: "POST",
  path: "/api/v1/usage/views",
  tag: "activation",
  summary: "Loads that happened outside skill_view (a harness reading skills from disk): {skill, sessionId, version?} or {views: [...]}",
  scope: "write",
  body: { schema: z.union([harnessViewBody, harnessViewBatch]), parse: parseHarnessViews },
  responses: { 201: json(z.strictObject({ recorded: z.number().int() }), "views recorded") },
  errors: ["SkillNotFound"],
});

export const ACTIVATION_OPERATIONS = [
  listPromptSets,
  savePromptSet,
  promptSetFromTelemetry,
  getPromptSet,
  replacePromptSet,
  deletePromptSet,
  startRun,
  listRuns,
  getRun,
  cancelRun,
  compareRuns,
  getUsage,
  recordViews,
];
