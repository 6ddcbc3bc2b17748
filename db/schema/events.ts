import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { teams, users } from "./teams";

/**
 * The team's event log of skill changes (the promotion history: docs/learned-skills.md#history): created, edited, promoted,
 * rolled back, verified, archived, restored, forked, imported. Rows are only ever added.
 */
export const skillEvents = pgTable(
  "skill_events",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    skillName: text("skill_name").notNull(),
    kind: text("kind").notNull(),
    version: integer("version"),
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorKeyId: integer("actor_key_id"),
    sessionId: text("session_id"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("skill_events_team_time_idx").on(t.teamId, t.at), index("skill_events_team_skill_idx").on(t.teamId, t.skillName)],
);
