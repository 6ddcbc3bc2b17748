import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgerRecords, ledgers } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { passRateOf } from "./week-rate";

/** Prediction pass rate = confirmed / (confirmed + refuted + inconclusive), counted in SQL (docs/ledger.md#pass-rates). */
export interface PassRate {
  confirmed: number;
  refuted: number;
  inconclusive: number;
  /** null when no prediction has a verdict yet: nothing to count is not 0%. */
  rate: number | null;
}

const verdictCounts = {
  confirmed: sql<number>`count(*) filter (where ${ledgerRecords.verdict} = 'confirmed')`.mapWith(Number),
  refuted: sql<number>`count(*) filter (where ${ledgerRecords.verdict} = 'refuted')`.mapWith(Number),
  inconclusive: sql<number>`count(*) filter (where ${ledgerRecords.verdict} = 'inconclusive')`.mapWith(Number),
};

function withRate<T extends Omit<PassRate, "rate">>(row: T): T & { rate: number | null } {
  return { ...row, rate: passRateOf(row) };
}

function verdictsOf(teamId: TeamId) {
  return and(eq(ledgers.teamId, teamId), eq(ledgerRecords.kind, "verdict"));
}

export async function teamPassRate(db: Db, teamId: TeamId): Promise<PassRate> {
  const [row] = await db
    .select(verdictCounts)
    .from(ledgerRecords)
    .innerJoin(ledgers, eq(ledgers.id, ledgerRecords.ledgerId))
    .where(verdictsOf(teamId));
  return withRate(row ?? { confirmed: 0, refuted: 0, inconclusive: 0 });
}

export async function passRateBySkill(db: Db, teamId: TeamId): Promise<(PassRate & { skill: string | null })[]> {
  const rows = await db
    .select({ skill: ledgers.skill, ...verdictCounts })
    .from(ledgerRecords)
    .innerJoin(ledgers, eq(ledgers.id, ledgerRecords.ledgerId))
    .where(verdictsOf(teamId))
    .groupBy(ledgers.skill)
    .orderBy(ledgers.skill);
  return rows.map(withRate);
}

/** Week by week (weeks start on Monday, UTC), oldest first. */
export async function passRateByWeek(db: Db, teamId: TeamId): Promise<(PassRate & { week: string })[]> {
  const week = sql<string>`to_char(date_trunc('week', ${ledgerRecords.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ week, ...verdictCounts })
    .from(ledgerRecords)
    .innerJoin(ledgers, eq(ledgers.id, ledgerRecords.ledgerId))
    .where(verdictsOf(teamId))
    .groupBy(week)
    .orderBy(week);
  return rows.map(withRate);
}

export interface LedgerSummary extends PassRate {
  slug: string;
  skill: string | null;
  records: number;
  openPredictions: number;
  lastActivity: string | null;
}

/** Every plan of the team with its counts and pass rate, most recently active first. */
export async function ledgerSummaries(db: Db, teamId: TeamId): Promise<LedgerSummary[]> {
  const lastActivity = sql<string | null>`max(${ledgerRecords.createdAt})`;
  const rows = await db
    .select({
      slug: ledgers.slug,
      skill: ledgers.skill,
      records: sql<number>`count(${ledgerRecords.id})`.mapWith(Number),
      openPredictions: sql<number>`count(*) filter (where ${ledgerRecords.kind} = 'prediction' and not exists (
        select 1 from ledger_records j
        where j.ledger_id = ${ledgerRecords.ledgerId} and j.ref = 'P' || ${ledgerRecords.seq} and j.kind in ('verdict', 'skip')))`.mapWith(
        Number,
      ),
      ...verdictCounts,
      lastActivity,
    })
    .from(ledgers)
    .leftJoin(ledgerRecords, eq(ledgerRecords.ledgerId, ledgers.id))
    .where(eq(ledgers.teamId, teamId))
    .groupBy(ledgers.id)
    .orderBy(desc(sql`max(${ledgerRecords.createdAt})`), ledgers.slug);
  return rows.map((row) => ({ ...withRate(row), lastActivity: row.lastActivity ? new Date(row.lastActivity).toISOString() : null }));
}

/** The team's ledger report: every plan, and the pass rate for the team, per skill and per week. */
export async function ledgerReport(db: Db, teamId: TeamId) {
  const [plans, team, bySkill, byWeek] = await Promise.all([
    ledgerSummaries(db, teamId),
    teamPassRate(db, teamId),
    passRateBySkill(db, teamId),
    passRateByWeek(db, teamId),
  ]);
  return { ledgers: plans, passRate: { team, bySkill, byWeek } };
}
