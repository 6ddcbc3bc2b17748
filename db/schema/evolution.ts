import { sql } from "drizzle-orm";
import {
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { teams, users } from "./teams";

/** An amendment's states (docs/evaluation-and-activation.md#amendment-states). */
export const AMENDMENT_STATES = ["pending", "evaluating", "evaluated", "awaiting-approval", "promoted", "rejected", "superseded"] as const;
export type AmendmentState = (typeof AMENDMENT_STATES)[number];

/** One run of a skill (docs/evaluation-and-activation.md#observations): the skill's history and the source of its test cases. */
export const observations = pgTable(
  "observations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    skillName: text("skill_name").notNull(),
    version: integer("version").notNull(),
    task: text("task").notNull(),
    category: text("category").notNull(),
    outcome: text("outcome", { enum: ["success", "failure", "partial"] }).notNull(),
    score: doublePrecision("score"),
    errorType: text("error_type"),
    durationMs: integer("duration_ms"),
    toolsCalled: text("tools_called").array(),
    failedToolCalls: text("failed_tool_calls").array(),
    feedback: text("feedback"),
    sessionId: text("session_id"),
    keyId: integer("key_id"),
    /** `api` for a run someone recorded; `telemetry` for a prompt whose tools failed while the skill was loaded. */
    source: text("source", { enum: ["api", "telemetry"] })
      .notNull()
      .default("api"),
    /** The prompt a telemetry observation is of: one observation per skill per failing prompt. */
    promptId: text("prompt_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("observations_team_skill_time_idx").on(t.teamId, t.skillName, t.createdAt),
    uniqueIndex("observations_telemetry_prompt_key")
      .on(t.teamId, t.skillName, t.sessionId, t.promptId)
      .where(sql`source = 'telemetry'`),
  ],
);

/** A proposed change to a skill (docs/evaluation-and-activation.md#amendments). It has no authority until an evaluation earns it one. */
export const amendments = pgTable(
  "amendments",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    skillName: text("skill_name").notNull(),
    // The skill's source and version the amendment was written against.
    skillSource: text("skill_source", { enum: ["builtin", "file", "learned"] }).notNull(),
    baseVersion: integer("base_version").notNull(),
    description: text("description"),
    body: text("body"),
    rationale: text("rationale").notNull(),
    origin: text("origin", { enum: ["person", "agent", "generated"] }).notNull(),
    // The amendment's state (docs/evaluation-and-activation.md#amendment-states, lib/evolution/amendment-states.ts): every move is one conditional update of it.
    status: text("status", { enum: AMENDMENT_STATES }).notNull().default("pending"),
    authorUserId: integer("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorKeyId: integer("author_key_id"),
    sessionId: text("session_id"),
    // A lead's latest decision on it (approved, rejected, overridden): which, who, when and why.
    decision: text("decision", { enum: ["approved", "rejected", "overridden"] }),
    decidedByUserId: integer("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedByKeyId: integer("decided_by_key_id"),
    decidedSession: text("decided_session"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionReason: text("decision_reason"),
    // Its rejection, kept after a later override so the amendment always says it was rejected.
    rejectedByUserId: integer("rejected_by_user_id").references(() => users.id, { onDelete: "set null" }),
    rejectedByKeyId: integer("rejected_by_key_id"),
    rejectedSession: text("rejected_session"),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    rejectionReason: text("rejection_reason"),
    // Re-proposing an out-of-date amendment (docs/evaluation-and-activation.md#out-of-date-amendments) makes a new one against the current version: each links the other.
    reproposedFrom: integer("reproposed_from").references((): AnyPgColumn => amendments.id, { onDelete: "set null" }),
    supersededBy: integer("superseded_by").references((): AnyPgColumn => amendments.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("amendments_team_skill_idx").on(t.teamId, t.skillName), index("amendments_team_status_idx").on(t.teamId, t.status, t.id)],
);

export interface DimensionScores {
  correctness: number;
  completeness: number;
  adherence: number;
}

/** A judged comparison of an amendment against the original on the skill's own history (docs/evaluation-and-activation.md#evaluation). */
export const evaluations = pgTable(
  "evaluations",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    amendmentId: integer("amendment_id")
      .notNull()
      .references(() => amendments.id, { onDelete: "cascade" }),
    skillName: text("skill_name").notNull(),
    status: text("status", { enum: ["running", "finished", "failed"] }).notNull(),
    verdict: text("verdict", { enum: ["improved", "regressed", "neutral", "inconclusive"] }),
    delta: doublePrecision("delta"),
    improved: integer("improved").notNull().default(0),
    regressed: integer("regressed").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    failedToJudge: integer("failed_to_judge").notNull().default(0),
    casesTotal: integer("cases_total").notNull().default(0),
    casesDone: integer("cases_done").notNull().default(0),
    modelId: text("model_id").notNull(),
    promptVersion: text("prompt_version").notNull(),
    promotedVersion: integer("promoted_version"),
    // Why the amendment was not applied when the verdict allowed it (auto-promotion off, the skill moved on, …).
    promotionNote: text("promotion_note"),
    error: text("error"),
    // Who started it: named on its "evaluated" event by whichever instance finishes it.
    startedByUserId: integer("started_by_user_id").references(() => users.id, { onDelete: "set null" }),
    startedByKeyId: integer("started_by_key_id"),
    startedSession: text("started_session"),
    // The instance judging it, until when: as for activation runs (lib/app/leases.ts).
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("evaluations_team_idx").on(t.teamId, t.startedAt), index("evaluations_running_idx").on(t.status, t.leaseUntil)],
);

export const evaluationCases = pgTable(
  "evaluation_cases",
  {
    id: serial("id").primaryKey(),
    evaluationId: integer("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    observationId: integer("observation_id").notNull(),
    outcome: text("outcome").notNull(),
    task: text("task").notNull(),
    status: text("status", { enum: ["pending", "judged", "failed"] })
      .notNull()
      .default("pending"),
    original: jsonb("original").$type<DimensionScores>(),
    amended: jsonb("amended").$type<DimensionScores>(),
    change: text("change", { enum: ["improved", "regressed", "unchanged"] }),
    rationale: text("rationale"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
  },
  (t) => [index("evaluation_cases_evaluation_idx").on(t.evaluationId, t.position)],
);
