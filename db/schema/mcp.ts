import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * Open MCP sessions (docs/mcp.md#endpoint-and-sessions). Kept in the database, not in a process, so a session opened through
 * one instance continues through any other; the session id is the agent session of its views.
 */
export const mcpSessions = pgTable(
  "mcp_sessions",
  {
    id: text("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    // The key that opened it: a session is only ever continued with the same key.
    keyId: integer("key_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mcp_sessions_last_seen_idx").on(t.lastSeenAt)],
);
