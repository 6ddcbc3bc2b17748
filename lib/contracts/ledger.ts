import { z } from "zod";
import { ledgerBody, ledgerSlugParam } from "../ledger/input";
import { VERDICTS } from "../ledger/records";
import { defineOperation, errorEnvelope, json, text } from "./operation";

/** The experiment ledger (docs/ledger.md#append-only): append-only, one endpoint for the seven actions. */

const slugParams = z.object({ slug: ledgerSlugParam });

export const ledgerRecordSchema = z.strictObject({
  id: z.string().describe("H1, P1, V1, O1, C1, S1…"),
  kind: z.enum(["hypothesis", "prediction", "verdict", "observation", "conclusion", "skip"]),
  ref: z.string().optional().describe("the hypothesis a prediction tests, the prediction a verdict or skip is about"),
  text: z.string().optional(),
  falsifiedBy: z.string().optional(),
  verdict: z.enum(VERDICTS as [string, ...string[]]).optional(),
  evidence: z.string().optional(),
  reason: z.string().optional(),
  createdAt: z.string(),
});

const ledgerText = text(
  "`[experiment] sci.<slug>/ledger: <N> record(s), <M> open prediction(s)`, then one line per record",
  "[experiment] sci.cache-fix/ledger: 2 record(s), 1 open prediction(s)\nH1 hypothesis: Keys include the timestamp\nP1 prediction (H1): Hit rate rises above 90% | falsifiedBy: npm run bench [open]",
);

export const appendLedger = defineOperation({
  operationId: "appendLedger",
  method: "POST",
  path: "/api/v1/ledger/{slug}",
  tag: "ledger",
  summary: "Append to the plan's ledger (record-hypothesis, -prediction, -verdict, -observation, -conclusion, -skip), or list it",
  scope: "write",
  params: slugParams,
  body: { schema: ledgerBody },
  responses: {
    201: json(z.strictObject({ record: ledgerRecordSchema, ledger: z.string().describe("sci.<slug>/ledger") }), "the record appended"),
    200: ledgerText,
  },
  errors: [
    "InvalidSlug",
    "UnknownAction",
    "MissingField",
    "InvalidVerdict",
    "BadRequest",
    "InvalidName",
    "UnknownHypothesis",
    "UnknownPrediction",
    "PredictionAlreadyJudged",
    "SkillMismatch",
  ],
});

export const readLedger = defineOperation({
  operationId: "readLedger",
  method: "GET",
  path: "/api/v1/ledger/{slug}",
  tag: "ledger",
  summary: "The ledger as text: the `list` action",
  scope: "read",
  params: slugParams,
  responses: { 200: ledgerText },
  errors: ["InvalidSlug"],
});

const openPrediction = z.strictObject({
  id: z.string(),
  text: z.string().nullable(),
  falsifiedBy: z.string().nullable(),
  hypothesis: z.string().nullable(),
});

export const ledgerGate = defineOperation({
  operationId: "ledgerGate",
  method: "GET",
  path: "/api/v1/ledger/{slug}/gate",
  tag: "ledger",
  summary: "The finishing gate: 200 when no prediction is open, else 409 with each open one verbatim",
  scope: "read",
  params: slugParams,
  responses: { 200: json(z.strictObject({ ledger: z.string(), open: z.array(openPrediction).max(0) }), "nothing is open") },
  errors: ["InvalidSlug", "OpenPredictions"],
  errorBodies: { OpenPredictions: errorEnvelope.extend({ ledger: z.string(), open: z.array(openPrediction).min(1) }) },
});

const passRate = {
  confirmed: z.number().int(),
  refuted: z.number().int(),
  inconclusive: z.number().int(),
  rate: z.number().nullable().describe("confirmed ÷ all verdicts; null when there is none"),
};

export const ledgerReportSchema = z.strictObject({
  ledgers: z.array(
    z.strictObject({
      slug: z.string(),
      skill: z.string().nullable(),
      records: z.number().int(),
      openPredictions: z.number().int(),
      lastActivity: z.string().nullable(),
      ...passRate,
    }),
  ),
  passRate: z.strictObject({
    team: z.strictObject(passRate),
    bySkill: z.array(z.strictObject({ skill: z.string().nullable(), ...passRate })),
    byWeek: z.array(z.strictObject({ week: z.string(), ...passRate })),
  }),
});

export const ledgerReport = defineOperation({
  operationId: "ledgerReport",
  method: "GET",
  path: "/api/v1/ledger",
  tag: "ledger",
  summary: "Every plan with records, open predictions and pass rate; the pass rate for the team, per skill and per week",
  scope: "read",
  responses: { 200: json(ledgerReportSchema, "the team's plans and pass rates") },
  errors: [],
});

export const LEDGER_OPERATIONS = [appendLedger, readLedger, ledgerGate, ledgerReport];
