import { sql } from "drizzle-orm";
import { bigserial, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { teams, users } from "./teams";

/** A plan's experiment ledger, `sci.<slug>/ledger` (docs/ledger.md#plans-and-keys). Created by its first record. */
export const ledgers = pgTable(
  "ledgers",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    // The skill this plan exercises, when it names one: pass rates per skill group by it.
    skill: text("skill"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("ledgers_team_slug_key").on(t.teamId, t.slug)],
);

/**
 * Ledger records. Append-only in the database itself: a trigger (migration 0003) refuses every
 * UPDATE, DELETE and TRUNCATE, so no route, however buggy, can rewrite history.
 */
export const ledgerRecords = pgTable(
  "ledger_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ledgerId: integer("ledger_id")
      .notNull()
      .references(() => ledgers.id),
    kind: text("kind", { enum: ["hypothesis", "prediction", "verdict", "observation", "conclusion", "skip"] }).notNull(),
    // H1, P1, V1, O1, C1, S1: the number counts records of this kind in this ledger.
    seq: integer("seq").notNull(),
    // The record this one is about: a prediction's hypothesis, a verdict's or skip's prediction.
    ref: text("ref"),
    text: text("text"),
    falsifiedBy: text("falsified_by"),
    verdict: text("verdict", { enum: ["confirmed", "refuted", "inconclusive"] }),
    evidence: text("evidence"),
    reason: text("reason"),
    keyId: integer("key_id"),
    userId: integer("user_id").references(() => users.id),
    sessionId: text("session_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_records_ledger_kind_seq_key").on(t.ledgerId, t.kind, t.seq),
    // A prediction takes one verdict or one skip, never two: the database settles any race.
    uniqueIndex("ledger_records_one_judgement_key")
      .on(t.ledgerId, t.ref)
      .where(sql`kind in ('verdict', 'skip')`),
    index("ledger_records_ledger_idx").on(t.ledgerId, t.id),
  ],
);
