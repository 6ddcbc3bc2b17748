import { bigint, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/*
 * Production telemetry (docs/telemetry.md): what the agents' own OpenTelemetry says they loaded. Raw events are
 * kept for the team's `telemetry_days`; the daily rollups beside them, written in the same
 * statement, are kept for good, so usage reads a row per skill per day whatever the history.
 */

const team = () =>
  integer("team_id")
    .notNull()
    .references(() => teams.id, { onDelete: "cascade" });

/**
 * One event an agent reported: a skill activation, a prompt, a tool result, an API request or a
 * tool a person rejected. `event_key` is what the agent makes unique (its session and event
 * sequence, or a span's trace and span id), so a batch an exporter sends again after a time-out
 * inserts nothing the second time. `at` is in the key because the table is partitioned by day
 * (docs/telemetry.md): a copy sent again says the same time, so it is still the same row.
 */
export const telemetryEvents = pgTable(
  "telemetry_events",
  {
    teamId: team(),
    eventKey: text("event_key").notNull(),
    kind: text("kind", { enum: ["activation", "prompt", "tool_result", "api_request", "tool_rejection"] }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    sessionId: text("session_id"),
    promptId: text("prompt_id"),
    /** The event's place in its session (`event.sequence`). */
    sequence: bigint("sequence", { mode: "number" }),
    /**
     * The skill's name as the agent reported it (`custom_skill` when it hid the name); on an API
     * request, the skill loaded while it was made.
     */
    skillName: text("skill_name"),
    trigger: text("trigger", { enum: ["proactive", "slash", "nested"] }),
    skillSource: text("skill_source"),
    /** `user.email`, else `user.account_uuid`. */
    person: text("person"),
    /** Only when the team's `store_prompts` was on when it arrived. */
    promptText: text("prompt_text"),
    /** A tool result's or a rejection's tool. */
    toolName: text("tool_name"),
    success: boolean("success"),
    durationMs: bigint("duration_ms", { mode: "number" }),
    /** A failed tool's error; like prompt texts, only when the team's `store_prompts` was on. */
    errorText: text("error_text"),
    costUsd: doublePrecision("cost_usd"),
    tokens: bigint("tokens", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.eventKey, t.at] }),
    index("telemetry_events_team_time_idx").on(t.teamId, t.at),
    // A prompt's events, by its key (session and prompt id), read back by every batch that adds to
    // it. Not led by the team: see docs/telemetry.md, "Attribution" (settling).
    index("telemetry_events_session_prompt_idx").on(t.sessionId, t.promptId),
  ],
);

/**
 * What one prompt did per skill loaded in it (docs/telemetry.md, "Attribution"): its tool calls,
 * failures, rejections, tokens and cost while that skill was the one loaded, and the prompt's wall
 * time. `skill_name` '' holds what ran while no skill was loaded. Each batch settles the prompts it
 * touched again from their raw events, so an event arriving late or out of order moves its figures
 * to the right skill; kept for good, like the other rollups, so a version's figures outlive the raw
 * events.
 */
export const productionPrompts = pgTable(
  "production_prompts",
  {
    teamId: team(),
    sessionId: text("session_id").notNull(),
    promptId: text("prompt_id").notNull(),
    skillName: text("skill_name").notNull(),
    /** The version agents got when the skill was activated; null for a skill the catalog does not hold. */
    version: integer("version"),
    /** Whether any skill was loaded in the prompt: '' rows of prompts with none are the no-skill baseline. */
    loaded: boolean("loaded").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    person: text("person"),
    activations: integer("activations").notNull(),
    toolCalls: integer("tool_calls").notNull(),
    toolFailures: integer("tool_failures").notNull(),
    rejections: integer("rejections").notNull(),
    costUsd: doublePrecision("cost_usd").notNull(),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    /** From the prompt's first event to its last. */
    promptMs: bigint("prompt_ms", { mode: "number" }).notNull(),
    /** `[{tool, failures, error}]`: the tools that failed and the first error each said (null unless stored). */
    failing: jsonb("failing").$type<FailingTool[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.sessionId, t.promptId, t.skillName] }),
    index("production_prompts_team_day_idx").on(t.teamId, t.day),
    index("production_prompts_team_skill_idx").on(t.teamId, t.skillName, t.version),
    // A prompt's rows, by its key, read by every batch that settles it; not led by the team, as
    // telemetry_events_session_prompt_idx.
    index("production_prompts_session_prompt_idx").on(t.sessionId, t.promptId),
  ],
);

/**
 * `production_prompts` added up per day, part and prompt time (docs/telemetry.md, "Production
 * figures"), so the team's figures read a row per part, day and time bucket whatever the number of
 * prompts. A part is a skill's name, ' before' (what ran before the first skill was loaded in a
 * prompt that loaded one), ' none' (prompts that loaded none) or ' total' (each prompt once, its
 * parts summed, its own time). `bucket` is the prompt time's bucket, 2% wide
 * (lib/usage/production-days.ts): the median is read from the buckets' counts and the mean of each
 * bucket's times. Settling a prompt again takes its old rows out and puts its new ones in, in the
 * same statement.
 */
export const productionDays = pgTable(
  "production_days",
  {
    teamId: team(),
    day: date("day", { mode: "string" }).notNull(),
    part: text("part").notNull(),
    bucket: integer("bucket").notNull(),
    prompts: integer("prompts").notNull(),
    toolCalls: bigint("tool_calls", { mode: "number" }).notNull(),
    toolFailures: bigint("tool_failures", { mode: "number" }).notNull(),
    rejections: bigint("rejections", { mode: "number" }).notNull(),
    costUsd: doublePrecision("cost_usd").notNull(),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    /** The prompts' times added up: their mean is the bucket's time. */
    promptMs: bigint("prompt_ms", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.part, t.bucket] })],
);

export interface FailingTool {
  tool: string;
  failures: number;
  error: string | null;
}

/** Tools whose failures while a skill is loaded make no observation of it (a lead's choice: docs/telemetry.md). */
export const mutedTools = pgTable(
  "muted_tools",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    toolName: text("tool_name").notNull(),
    mutedAt: timestamp("muted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.skillName, t.toolName] })],
);

/**
 * Activations of a skill on one UTC day, by trigger, and the people whose last activation of it
 * fell on that day: "people in the last 30 days" is the sum of the last 30 days' `people`, so usage
 * reads a row per skill per day however many people the team has.
 */
export const skillActivationDays = pgTable(
  "skill_activation_days",
  {
    teamId: team(),
    day: date("day", { mode: "string" }).notNull(),
    skillName: text("skill_name").notNull(),
    proactive: integer("proactive").notNull(),
    slash: integer("slash").notNull(),
    nested: integer("nested").notNull(),
    people: integer("people").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.skillName] })],
);

/** The people who activated a skill on one UTC day: a skill page lists who used it on how many days. */
export const skillActivationPeople = pgTable(
  "skill_activation_people",
  {
    teamId: team(),
    day: date("day", { mode: "string" }).notNull(),
    skillName: text("skill_name").notNull(),
    person: text("person").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.day, t.skillName, t.person] }),
    index("skill_activation_people_skill_idx").on(t.teamId, t.skillName, t.day),
  ],
);

/**
 * The last day each person activated each skill: the day whose `people` (above) a person leaves
 * when they activate the skill on a later day. Read only by the writer, by key.
 */
export const skillActivationLastDays = pgTable(
  "skill_activation_last_days",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    person: text("person").notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.skillName, t.person] })],
);

/**
 * What arrived on one UTC day: records received, prompts among them (the denominator of
 * "proactive activations per 100 prompts") and records ignored (events Skillgate does not use).
 */
export const telemetryDays = pgTable(
  "telemetry_days",
  {
    teamId: team(),
    day: date("day", { mode: "string" }).notNull(),
    records: bigint("records", { mode: "number" }).notNull(),
    prompts: integer("prompts").notNull(),
    ignored: bigint("ignored", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day] })],
);
