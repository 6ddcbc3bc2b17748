import { sql } from "drizzle-orm";
import {
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { apiKeys, memberships, teams, users } from "./teams";

/*
 * Telling leads (docs/learned-skills.md#webhooks-and-mail, issue 39): the receivers a lead registers, the outbox of what is
 * to be sent to them (and mailed to leads who asked), and each attempt with its answer.
 */

const team = () =>
  integer("team_id")
    .notNull()
    .references(() => teams.id, { onDelete: "cascade" });

/**
 * A receiver of the team's events. The signing secret is kept as it was made, because every
 * delivery is signed with it; it is shown once, on creation, and never answered again.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: serial("id").primaryKey(),
    teamId: team(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    /** `slack`: a readable `{"text"}` message instead of the JSON envelope. */
    format: text("format", { enum: ["json", "slack"] }).notNull(),
    secret: text("secret").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByKey: integer("created_by_key").references(() => apiKeys.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("webhooks_team_url_key").on(t.teamId, t.url)],
);

/** The events a lead asked to get by mail, in one team (empty: none). Goes with the membership. */
export const mailSubscriptions = pgTable(
  "mail_subscriptions",
  {
    teamId: integer("team_id").notNull(),
    userId: integer("user_id").notNull(),
    events: text("events").array().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    foreignKey({ columns: [t.teamId, t.userId], foreignColumns: [memberships.teamId, memberships.userId] }).onDelete("cascade"),
  ],
);

/**
 * The outbox: one row per event and receiver (a webhook, or a lead to mail), written in the
 * transaction that made the change, so it exists exactly when the change committed. An instance
 * claims a due row with a lease, sends it, and records the attempt; a failed one is tried again
 * later, until 24 hours after the event.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    teamId: team(),
    webhookId: integer("webhook_id").references(() => webhooks.id, { onDelete: "cascade" }),
    /** A lead to mail instead of a webhook. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Shared by every delivery of one event: the envelope's `id`. */
    eventId: uuid("event_id").notNull(),
    event: text("event").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    check("webhook_deliveries_one_receiver", sql`(${t.webhookId} is null) <> (${t.userId} is null)`),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id),
    index("webhook_deliveries_user_idx").on(t.userId),
  ],
);

/** Each try of a delivery and what came back: the status code and the start of the answer, or why there was none. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer("status_code"),
    /** The first characters of the answer's body. */
    answer: text("answer"),
    /** What went wrong when there was no answer (a time-out, a refused connection, a mail server's refusal). */
    error: text("error"),
    ms: integer("ms").notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

/**
 * Skills agents use only by people typing `/name` (docs/telemetry.md#activations), as last announced: `skill.only_typed`
 * fires when a name comes in, not again while it stays, and again if it leaves and comes back.
 */
export const typedOnlySkills = pgTable(
  "typed_only_skills",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.skillName] })],
);
