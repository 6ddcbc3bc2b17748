import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evaluations, skillEvents } from "@/db/schema";
import { listAmendments, type AmendmentReader } from "./amendments";
import type { CatalogKey } from "../skills/catalog-cache";
import type { TeamId } from "../teams/teams";
import { eventAuthor, eventsWithAuthors, SKILL_EVENT_KINDS } from "../learned/events";
import { DECISION_EVENT_KINDS, type DecisionEventCount } from "./promotion-decisions";

/** The promotion history (docs/learned-skills.md#history, docs/dashboard.md#promotion-history): the team's event log, newest first, with who did each thing. */

export const HISTORY_KINDS = SKILL_EVENT_KINDS;

export interface HistoryEvent {
  id: number;
  at: string;
  skill: string;
  kind: string;
  version: number | null;
  actor: string;
  detail: Record<string, unknown>;
}

export async function teamHistory(
  db: Db,
  teamId: TeamId,
  filter: { skill?: string; kind?: string; limit?: number } = {},
): Promise<HistoryEvent[]> {
  const rows = await eventsWithAuthors(db)
    .where(
      and(
        eq(skillEvents.teamId, teamId),
        filter.skill ? eq(skillEvents.skillName, filter.skill) : undefined,
        filter.kind ? eq(skillEvents.kind, filter.kind) : undefined,
      ),
    )
    .orderBy(desc(skillEvents.at), desc(skillEvents.id))
    .limit(filter.limit ?? 200);
  return rows.map((row) => ({
    id: row.event.id,
    at: row.event.at.toISOString(),
    skill: row.event.skillName,
    kind: row.event.kind,
    version: row.event.version,
    actor: eventAuthor(row),
    detail: row.event.detail,
  }));
}

/** The team's decision events counted by week and by what tells their decisions apart (promotion-decisions.ts reads them). */
export async function decisionEventCounts(db: Db, teamId: TeamId): Promise<DecisionEventCount[]> {
  const week = sql<string>`to_char(date_trunc('week', ${skillEvents.at} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const auto = sql<boolean>`coalesce(${skillEvents.detail}->'auto' = 'true'::jsonb, false)`;
  const verdict = sql<string | null>`${skillEvents.detail}->>'verdict'`;
  return db
    .select({ week, kind: skillEvents.kind, auto, verdict, count: sql<number>`count(*)`.mapWith(Number) })
    .from(skillEvents)
    .where(and(eq(skillEvents.teamId, teamId), inArray(skillEvents.kind, [...DECISION_EVENT_KINDS])))
    .groupBy(week, skillEvents.kind, auto, verdict)
    .orderBy(week);
}

/** The team's evaluations, newest first, each with its amendment as every list shows it: its state now and the decisions on it. */
export async function teamEvaluations(deps: AmendmentReader, team: CatalogKey, skill?: string) {
  const rows = await deps.db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.teamId, team.id), skill ? eq(evaluations.skillName, skill) : undefined))
    .orderBy(desc(evaluations.id))
    .limit(100);
  const entries = await listAmendments(deps, team, { ids: [...new Set(rows.map((row) => row.amendmentId))] });
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return rows.map((row) => ({ ...row, amendment: byId.get(row.amendmentId) ?? null }));
}
