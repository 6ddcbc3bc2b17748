import { date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/*
 * Rollups of skill_views and observations, kept in the transaction that writes the rows they
 * count, so usage and the overview read a row per skill (per day, per pair) instead of scanning
 * history (docs/decisions/usage-rollups.md). Days are UTC dates.
 */

const team = () =>
  integer("team_id")
    .notNull()
    .references(() => teams.id, { onDelete: "cascade" });

/** Views of a skill on one day, and the agent sessions whose first load of it fell on that day. */
export const skillViewDays = pgTable(
  "skill_view_days",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    views: integer("views").notNull(),
    sessions: integer("sessions").notNull(),
  },
  // The key leads with the day, for a window's sums over every skill; the index leads with the name,
  // for the days of the few skills a page shows (their sparklines), which the key would find only by
  // reading every skill's days of the window.
  (t) => [
    primaryKey({ columns: [t.teamId, t.day, t.skillName] }),
    index("skill_view_days_team_skill_day_idx").on(t.teamId, t.skillName, t.day),
  ],
);

/** Views of each source and version of a skill since the first: last viewed, never loaded, loads per version. */
export const skillViewTotals = pgTable(
  "skill_view_totals",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    source: text("source").notNull(),
    version: integer("version").notNull(),
    views: integer("views").notNull(),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.skillName, t.source, t.version] })],
);

/** The first load of a skill in an agent session: a session counts once per skill, and pairs are made from these. */
export const sessionLoads = pgTable(
  "session_loads",
  {
    teamId: team(),
    sessionId: text("session_id").notNull(),
    skillName: text("skill_name").notNull(),
    firstViewedAt: timestamp("first_viewed_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.sessionId, t.skillName] })],
);

/** Sessions that loaded both skills (skill_a < skill_b), by the day the later of the two first loads fell on. */
export const coLoadedDays = pgTable(
  "co_loaded_days",
  {
    teamId: team(),
    skillA: text("skill_a").notNull(),
    skillB: text("skill_b").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    sessions: integer("sessions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.skillA, t.skillB] })],
);

/** Recorded runs (observations) of each version of a skill, and how many succeeded. */
export const observationTotals = pgTable(
  "observation_totals",
  {
    teamId: team(),
    skillName: text("skill_name").notNull(),
    version: integer("version").notNull(),
    runs: integer("runs").notNull(),
    successes: integer("successes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.skillName, t.version] })],
);
