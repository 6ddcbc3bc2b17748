import { and, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { observations, observationTotals } from "@/db/schema";
import { versionsThatRan } from "../skills/catalog";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import type { TeamId } from "../teams/teams";
import type { ObservationInput } from "../contracts/evolution";

/** Observations (docs/evaluation-and-activation.md#observations): one per run of a skill, recorded against the version that ran. */

/** Records observations all or nothing; each must name a skill the team can see and a version it has had. */
export async function recordObservations(
  db: Db,
  catalogs: CatalogCache,
  team: CatalogKey,
  inputs: ObservationInput[],
  author: { keyId: number | null; sessionId: string | null },
): Promise<number[]> {
  const ran = versionsThatRan(await catalogs.catalog(team), inputs, "observations");
  const rows = ran.map(([input, version]) => ({
    teamId: team.id,
    skillName: input.skill,
    version,
    task: input.task,
    category: input.category,
    outcome: input.outcome,
    score: input.score ?? null,
    errorType: input.errorType ?? null,
    durationMs: input.durationMs ?? null,
    toolsCalled: input.toolsCalled ?? null,
    failedToolCalls: input.failedToolCalls ?? null,
    feedback: input.feedback ?? null,
    sessionId: input.sessionId ?? author.sessionId,
    keyId: author.keyId,
  }));
  return writeObservations(db, rows);
}

/** Writes observations with their per-version totals (db/schema/usage.ts) in one transaction; returns their ids. */
export async function writeObservations(db: Db, rows: (typeof observations.$inferInsert)[]): Promise<number[]> {
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(observations).values(rows).returning({ id: observations.id });
    const totals = new Map<string, { teamId: number; skillName: string; version: number; runs: number; successes: number }>();
    for (const { teamId, skillName, version, outcome } of rows) {
      const total = getOrAdd(totals, [teamId, skillName, version], () => ({ teamId, skillName, version, runs: 0, successes: 0 }));
      total.runs += 1;
      if (outcome === "success") total.successes += 1;
    }
    await tx
      .insert(observationTotals)
      .values([...totals.values()])
      .onConflictDoUpdate({
        target: [observationTotals.teamId, observationTotals.skillName, observationTotals.version],
        set: {
          runs: sql`${observationTotals.runs} + excluded.runs`,
          successes: sql`${observationTotals.successes} + excluded.successes`,
        },
      });
    return inserted.map((row) => row.id);
  });
}

export interface ObservationFilter {
  outcome?: "success" | "failure" | "partial";
  category?: string;
  version?: number;
  since?: Date;
  until?: Date;
  limit?: number;
  source?: "api" | "telemetry";
}

export async function listObservations(db: Db, teamId: TeamId, skill: string, filter: ObservationFilter = {}) {
  const where = and(
    eq(observations.teamId, teamId),
    eq(observations.skillName, skill),
    filter.outcome ? eq(observations.outcome, filter.outcome) : undefined,
    filter.category ? eq(observations.category, filter.category) : undefined,
    filter.version ? eq(observations.version, filter.version) : undefined,
    filter.since ? gte(observations.createdAt, filter.since) : undefined,
    filter.until ? lte(observations.createdAt, filter.until) : undefined,
    filter.source ? eq(observations.source, filter.source) : undefined,
  );
  return db
    .select()
    .from(observations)
    .where(where)
    .orderBy(desc(observations.createdAt), desc(observations.id))
    .limit(filter.limit ?? 100);
}

/** Success rate per skill for the overview: successes / observations, null with none. */
export async function successRates(db: Db, teamId: TeamId): Promise<Map<string, { runs: number; rate: number | null }>> {
  const rows = await db
    .select({
      skill: observationTotals.skillName,
      runs: sql<number>`sum(${observationTotals.runs})`.mapWith(Number),
      successes: sql<number>`sum(${observationTotals.successes})`.mapWith(Number),
    })
    .from(observationTotals)
    .where(eq(observationTotals.teamId, teamId))
    .groupBy(observationTotals.skillName);
  return new Map(rows.map((row) => [row.skill, { runs: row.runs, rate: row.runs === 0 ? null : row.successes / row.runs }]));
}

/**
 * The test cases of an evaluation (docs/evaluation-and-activation.md#evaluation), failure-weighted: up to 7 most recent failures
 * (`partial` counts as failure) and up to 3 most recent successes.
 */
export async function selectTestCases(db: Db, teamId: TeamId, skill: string) {
  const recent = (outcomes: ("success" | "failure" | "partial")[], limit: number) =>
    db
      .select()
      .from(observations)
      .where(and(eq(observations.teamId, teamId), eq(observations.skillName, skill), inArray(observations.outcome, outcomes)))
      .orderBy(desc(observations.createdAt), desc(observations.id))
      .limit(limit);
  const [failures, successes] = await Promise.all([recent(["failure", "partial"], 7), recent(["success"], 3)]);
  return [...failures, ...successes];
}

/** The entry of `map` under `key` (its parts joined as JSON), made by `create` the first time: how a batch is summed into total rows. */
function getOrAdd<T>(map: Map<string, T>, key: readonly unknown[], create: () => T): T {
  const id = JSON.stringify(key);
  let entry = map.get(id);
  if (entry === undefined) map.set(id, (entry = create()));
  return entry;
}
