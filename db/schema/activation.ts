import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, index, boolean } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/** One prompt of an activation eval (docs/evaluation-and-activation.md#activation-evals): D names the skill's keywords, P paraphrases, G expects nothing. */
export interface PromptCase {
  id: string;
  prompt: string;
  expected: string[];
  expectNone: boolean;
}

export const promptSets = pgTable(
  "prompt_sets",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    cases: jsonb("cases").$type<PromptCase[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("prompt_sets_team_name_key").on(t.teamId, t.name)],
);

/** A run measures one catalog state (the listing it ran against is kept) with one activator. */
export const evalRuns = pgTable(
  "eval_runs",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    promptSetName: text("prompt_set_name").notNull(),
    cases: jsonb("cases").$type<PromptCase[]>().notNull(),
    activator: text("activator", { enum: ["model", "lexical", "import"] }).notNull(),
    modelId: text("model_id"),
    trials: integer("trials").notNull(),
    status: text("status", { enum: ["queued", "running", "finished", "failed", "cancelled"] }).notNull(),
    listingText: text("listing_text").notNull(),
    // The version of each listed skill when the run started: what per-version recall is counted against.
    skillVersions: jsonb("skill_versions").$type<Record<string, number>>(),
    caseRuns: integer("case_runs").notNull(),
    done: integer("done").notNull().default(0),
    metrics: jsonb("metrics").$type<Record<string, unknown>>(),
    error: text("error"),
    // The worker on a running model run, until when (lib/app/leases.ts): one
    // whose lease ran out is taken over by another instance, which goes on from the cases done.
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("eval_runs_team_idx").on(t.teamId, t.createdAt), index("eval_runs_running_idx").on(t.status, t.leaseUntil)],
);

/** One case-run: a case in one trial, and the skills the activator loaded. */
export const evalResults = pgTable(
  "eval_results",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => evalRuns.id, { onDelete: "cascade" }),
    caseId: text("case_id").notNull(),
    trial: integer("trial").notNull(),
    loaded: text("loaded").array().notNull(),
    passed: boolean("passed").notNull(),
  },
  (t) => [uniqueIndex("eval_results_run_case_trial_key").on(t.runId, t.caseId, t.trial)],
);
