import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { evalResults, evalRuns, observationTotals, skillViewTotals } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import type { SkillSource } from "./catalog";

/**
 * What each version of a skill did (the skill page: docs/dashboard.md#skill-page): how often agents loaded it, how its
 * recorded runs went, and how often activation runs loaded it when a prompt expected it. Counts,
 * not only rates, so a lead can see how much evidence a rate rests on.
 */
export interface VersionEvidence {
  version: number;
  views: number;
  runs: { total: number; succeeded: number };
  recall: { expected: number; loaded: number };
}

export function noEvidence(version: number): VersionEvidence {
  return { version, views: 0, runs: { total: 0, succeeded: 0 }, recall: { expected: 0, loaded: 0 } };
}

/** Activation runs looked at: the most recent ones, so the cost stays flat as runs accumulate. */
const RECENT_RUNS = 50;

export async function versionEvidence(
  db: Db,
  teamId: TeamId,
  skill: { name: string; source: SkillSource },
): Promise<Map<number, VersionEvidence>> {
  const [views, runs, recall] = await Promise.all([
    db
      .select({ version: skillViewTotals.version, count: sql<number>`sum(${skillViewTotals.views})::int` })
      .from(skillViewTotals)
      .where(
        and(
          eq(skillViewTotals.teamId, teamId),
          eq(skillViewTotals.skillName, skill.name),
          inArray(skillViewTotals.source, viewSources(skill.source)),
        ),
      )
      .groupBy(skillViewTotals.version),
    db
      .select({ version: observationTotals.version, total: observationTotals.runs, succeeded: observationTotals.successes })
      .from(observationTotals)
      .where(and(eq(observationTotals.teamId, teamId), eq(observationTotals.skillName, skill.name))),
    recallByVersion(db, teamId, skill.name),
  ]);
  const evidence = new Map<number, VersionEvidence>();
  const of = (version: number) => {
    let row = evidence.get(version);
    if (!row) evidence.set(version, (row = noEvidence(version)));
    return row;
  };
  for (const row of views) of(row.version).views = row.count;
  for (const row of runs) of(row.version).runs = { total: row.total, succeeded: row.succeeded };
  for (const [version, counts] of recall) of(version).recall = counts;
  return evidence;
}

/** Views of this skill, not of another of its name that it shadows: its own source, a harness's report, and a learned skill's draft days. */
function viewSources(source: SkillSource): string[] {
  return source === "learned" ? ["learned", "draft", "harness"] : [source, "harness"];
}

/** Case-runs that expected the skill, and how many loaded it, by the version the run listed. */
async function recallByVersion(db: Db, teamId: TeamId, name: string): Promise<Map<number, { expected: number; loaded: number }>> {
  const runs = await db
    .select({ id: evalRuns.id, cases: evalRuns.cases, versions: evalRuns.skillVersions })
    .from(evalRuns)
    .where(and(eq(evalRuns.teamId, teamId), eq(evalRuns.status, "finished"), isNotNull(evalRuns.skillVersions)))
    .orderBy(desc(evalRuns.id))
    .limit(RECENT_RUNS);
  const counts = new Map<number, { expected: number; loaded: number }>();
  const expecting = new Map<number, { version: number; cases: Set<string> }>();
  for (const run of runs) {
    const version = run.versions?.[name];
    const cases = new Set(run.cases.filter((c) => c.expected.includes(name)).map((c) => c.id));
    if (version !== undefined && cases.size > 0) expecting.set(run.id, { version, cases });
  }
  if (expecting.size === 0) return counts;
  const results = await db
    .select({ runId: evalResults.runId, caseId: evalResults.caseId, loaded: evalResults.loaded })
    .from(evalResults)
    .where(inArray(evalResults.runId, [...expecting.keys()]));
  for (const result of results) {
    const run = expecting.get(result.runId);
    if (!run?.cases.has(result.caseId)) continue;
    const count = counts.get(run.version) ?? { expected: 0, loaded: 0 };
    count.expected++;
    if (result.loaded.includes(name)) count.loaded++;
    counts.set(run.version, count);
  }
  return counts;
}
