import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/*
 * Production telemetry (§9.1): what the agents' own OpenTelemetry says they loaded. Raw events are
 * kept for the team's `telemetry_days`; the daily rollups beside them, written in the same
 * statement, are kept for good, so usage reads a row per skill per day whatever the history.
 */

const team = () =>
  integer("team_id")
    .notNull()
    .references(() => teams.id, { onDelete: "cascade" });

/**
 * One event an agent reported: a skill activation or a prompt. `event_key` is what the agent
 * makes unique (its session and event sequence, or a span's trace and span id), so a batch an
 * exporter sends again after a time-out inserts nothing the second time.
 */
export const telemetryEvents = pgTable(
  "telemetry_events",
  {
    teamId: team(),
    eventKey: text("event_key").notNull(),
    kind: text("kind", { enum: ["activation", "prompt"] }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    sessionId: text("session_id"),
    promptId: text("prompt_id"),
    /** The skill's name as the agent reported it; `custom_skill` when it hid the name. */
    skillName: text("skill_name"),
    trigger: text("trigger", { enum: ["proactive", "slash", "nested"] }),
    skillSource: text("skill_source"),
    /** `user.email`, else `user.account_uuid`. */
    person: text("person"),
    /** Only when the team's `store_prompts` was on when it arrived. */
    promptText: text("prompt_text"),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.eventKey] }),
    index("telemetry_events_team_time_idx").on(t.teamId, t.at),
    // A prompt's activations, for prompt sets built from production.
    index("telemetry_events_team_prompt_idx").on(t.teamId, t.promptId),
  ],
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
