import { unlessCode } from "../errors";
import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import pLimit from "p-limit";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { evalResults, evalRuns, type PromptCase } from "@/db/schema";
import type { RunRequest } from "../contracts/activation";
import { AppError, specError } from "../errors";
import { failureMessage } from "../evolution/failure-message";
import { requireModel, type ConfiguredModel, type ModelWorkDeps } from "../evolution/model";
import type { ListingSettings } from "../listing/render";
import type { CatalogKey } from "../skills/catalog-cache";
import { loadSkillContent } from "../skills/view";
import { lexicalIndex, listingDocuments, type LexicalIndex } from "./lexical";
import { activationMetrics, casePasses, type ActivationMetrics, type CaseRun } from "./metrics";
import { modelActivate } from "./model-activator";
import { getPromptSet, parsePromptSet } from "./prompt-sets";
import { leaseEnd, leaseToken } from "../jobs/leases";
import { recoverExpired, workLeased, type LeasedJob } from "../jobs/worker";
import { getTeam, type TeamId } from "../teams/teams";

/** Activation runs (docs/evaluation-and-activation.md#activation-evals): one catalog state, one activator, every case × trial. */

export type RunTeam = CatalogKey & { listingCap: number; descMax: number; loadHint: string };

export async function startRun(
  deps: ModelWorkDeps,
  team: RunTeam,
  request: RunRequest,
): Promise<{ runId: number; activator: RunRequest["activator"]; done: Promise<void> }> {
  const set = request.promptSet.cases ? parsePromptSet(request.promptSet) : await getPromptSet(deps.db, team.id, request.promptSet.name);
  if (request.activator === "import" && !request.results)
    throw new AppError("InvalidField", 'an "import" run needs results: [{"id", "loaded"}]');
  if (request.activator !== "import" && request.results)
    throw new AppError("InvalidField", `results are only for "import" runs; a ${request.activator} run makes its own`);
  const model = request.activator === "model" ? requireModel(deps.model) : null;
  const imported = request.results ? importedRuns(set.cases, request.results) : null;
  const trials = imported ? Math.max(...imported.map((r) => r.trial)) : (request.trials ?? 1);
  const settings: ListingSettings = { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint };
  const [listing, catalog] = await Promise.all([deps.catalogs.listing(team, settings), deps.catalogs.catalog(team)]);
  // An imported run comes with its results: it is written whole, in one transaction. A lexical or
  // model run is written running, leased, and worked on in the background, its results written
  // batch by batch, so the request that starts it answers at once and the run page shows progress.
  const token = leaseToken(deps.work);
  const runId = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(evalRuns)
      .values({
        teamId: team.id,
        promptSetName: set.name,
        cases: set.cases,
        activator: request.activator,
        modelId: model?.id ?? null,
        trials,
        status: "running",
        leaseOwner: imported ? null : token,
        leaseUntil: imported ? null : leaseEnd(deps.work),
        listingText: listing.text,
        skillVersions: Object.fromEntries(catalog.active.map((skill) => [skill.name, skill.version])),
        caseRuns: imported ? imported.length : set.cases.length * trials,
      })
      .returning({ id: evalRuns.id });
    const id = singleRow(inserted).id;
    if (imported) await finishRun(tx, id, set.cases, imported);
    return id;
  });
  const done = imported
    ? Promise.resolve()
    : model
      ? workOnRun(deps, runId, token)
      : workLeased(deps.db, deps.work, lexicalJob(deps, lexicalIndex(listingDocuments(listing))), runId, token);
  return { runId, activator: request.activator, done };
}

/** Results from an external harness: each names a case; trials number in the order they arrive. */
function importedRuns(cases: PromptCase[], results: NonNullable<RunRequest["results"]>): CaseRun[] {
  const ids = new Set(cases.map((c) => c.id));
  const trialOf = new Map<string, number>();
  const runs = results.map((result, i) => {
    if (!ids.has(result.id)) throw new AppError("InvalidField", `results.${i}: "${result.id}" is not a case of this prompt set`);
    const trial = result.trial ?? (trialOf.get(result.id) ?? 0) + 1;
    trialOf.set(result.id, trial);
    return { caseId: result.id, trial, loaded: [...new Set(result.loaded)] };
  });
  const missing = cases.find((c) => !trialOf.has(c.id));
  if (missing) throw new AppError("InvalidField", `no result for case "${missing.id}"; send one per case (and trial)`);
  const keys = new Set<string>();
  for (const run of runs) {
    const key = `${run.caseId}#${run.trial}`;
    if (keys.has(key)) throw new AppError("InvalidField", `case "${run.caseId}" has two results for trial ${run.trial}`);
    keys.add(key);
  }
  return runs;
}

/**
 * A model run as leased work: the case-runs that have no result yet, one model call each, every
 * result written as it comes. An instance that dies stops renewing the lease, and another one goes
 * on from the results already written. Writing twice is harmless: a result is kept once, and only
 * a running run is finished. A lexical run works from the index its instance built from the
 * listing of that moment, which another instance does not hold, so one taken over is marked failed.
 */
function runJob(deps: ModelWorkDeps): LeasedJob {
  return {
    kind: "activation run",
    table: evalRuns,
    work: async (runId, lease, owned) => {
      const row = await runningRow(deps.db, runId);
      if (!row) return;
      if (row.activator !== "model") return failRun(deps.db, runId, lease.token, INTERRUPTED);
      const model = requireModel(deps.model);
      const team = await getTeam(deps.db, row.teamId as TeamId);
      const remaining = await remainingCaseRuns(deps.db, row);
      await modelRuns(deps, team, model, row, remaining, owned);
      if (!(await owned())) return;
      await finishRun(deps.db, runId, row.cases, await results(deps.db, runId));
    },
    fail: (runId, token, error) => failRun(deps.db, runId, token, failureMessage(error)),
  };
}

/** Case-runs a lexical run writes at a time: its progress moves batch by batch, and requests are served between batches. */
export const LEXICAL_BATCH = 25;

/** A lexical run in the instance that started it: the keyword matcher over the run's listing, batch by batch. */
function lexicalJob(deps: ModelWorkDeps, index: LexicalIndex): LeasedJob {
  return {
    ...runJob(deps),
    work: async (runId, _lease, owned) => {
      const row = await runningRow(deps.db, runId);
      if (!row) return;
      for (const batch of inSlices(await remainingCaseRuns(deps.db, row), LEXICAL_BATCH)) {
        if (!(await owned())) return;
        await recordResults(
          deps.db,
          row,
          batch.map(({ c, trial }) => ({ caseId: c.id, trial, loaded: index.activate(c.prompt) })),
        );
      }
      if (!(await owned())) return;
      await finishRun(deps.db, runId, row.cases, await results(deps.db, runId));
    },
  };
}

type RunRow = typeof evalRuns.$inferSelect;

async function runningRow(db: Db, runId: number): Promise<RunRow | null> {
  const [row] = await db.select().from(evalRuns).where(eq(evalRuns.id, runId));
  return row?.status === "running" ? row : null;
}

/** The case-runs of a run that have no result yet (another worker may have written some). */
async function remainingCaseRuns(db: Db, row: RunRow): Promise<{ c: PromptCase; trial: number }[]> {
  const done = new Set((await results(db, row.id)).map((run) => `${run.caseId}#${run.trial}`));
  return row.cases
    .flatMap((c) => Array.from({ length: row.trials }, (_, t) => ({ c, trial: t + 1 })))
    .filter(({ c, trial }) => !done.has(`${c.id}#${trial}`));
}

/** Writes results as they come, each kept once, and counts those kept towards the run's progress. */
async function recordResults(db: Db, row: RunRow, runs: CaseRun[]): Promise<void> {
  const kept = await db
    .insert(evalResults)
    .values(resultRows(row.id, row.cases, runs))
    .onConflictDoNothing()
    .returning({ id: evalResults.id });
  if (kept.length === 0) return;
  await db
    .update(evalRuns)
    .set({ done: sql`${evalRuns.done} + ${kept.length}` })
    .where(eq(evalRuns.id, row.id));
}

const INTERRUPTED = "interrupted: the server stopped while it ran; start it again";

async function failRun(db: Db, runId: number, token: string, error: string): Promise<void> {
  await db
    .update(evalRuns)
    .set({ status: "failed", error, finishedAt: new Date() })
    .where(and(eq(evalRuns.id, runId), eq(evalRuns.status, "running"), eq(evalRuns.leaseOwner, token)));
}

/** Works on a model run until it is finished, cancelled or taken over (the worker of lib/jobs). */
export function workOnRun(deps: ModelWorkDeps, runId: number, token: string): Promise<void> {
  return workLeased(deps.db, deps.work, runJob(deps), runId, token);
}

async function modelRuns(
  deps: ModelWorkDeps,
  team: CatalogKey,
  model: ConfiguredModel,
  row: RunRow,
  jobs: { c: PromptCase; trial: number }[],
  owned: () => Promise<boolean>,
): Promise<void> {
  const limit = pLimit(deps.judgeConcurrency);
  const bodyOf = async (name: string) => {
    // The model asked for a skill the catalog does not hold: it gets no body, as skill_view would answer.
    const content = await loadSkillContent(deps.db, deps.catalogs, team, name).catch(unlessCode("SkillNotFound"));
    return content ? content.body : null;
  };
  await Promise.all(
    jobs.map(({ c, trial }) =>
      limit(async () => {
        if (!(await owned())) return;
        const loaded = await modelActivate(model, row.listingText, c.prompt, bodyOf);
        await recordResults(deps.db, row, [{ caseId: c.id, trial, loaded }]);
      }),
    ),
  );
}

async function results(db: Db, runId: number): Promise<CaseRun[]> {
  return db
    .select({ caseId: evalResults.caseId, trial: evalResults.trial, loaded: evalResults.loaded })
    .from(evalResults)
    .where(eq(evalResults.runId, runId));
}

/** Takes over runs whose lease ran out (their instance died or stalled), a few each tick. */
export function recoverRuns(deps: ModelWorkDeps): Promise<number[]> {
  return recoverExpired(deps.db, deps.work, runJob(deps));
}

/** Result rows, each with whether it passed its case. */
function resultRows(runId: number, cases: PromptCase[], runs: CaseRun[]) {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return runs.map((run) => {
    const promptCase = byId.get(run.caseId);
    if (!promptCase) throw new Error(`activation run ${runId} has a result for "${run.caseId}", which is not one of its cases`);
    return { runId, caseId: run.caseId, trial: run.trial, loaded: run.loaded, passed: casePasses(promptCase, run.loaded) };
  });
}

async function finishRun(db: Db, runId: number, cases: PromptCase[], runs: CaseRun[]): Promise<void> {
  const existing = await db
    .select({ caseId: evalResults.caseId, trial: evalResults.trial })
    .from(evalResults)
    .where(eq(evalResults.runId, runId));
  const written = new Set(existing.map((r) => `${r.caseId}#${r.trial}`));
  const fresh = runs.filter((run) => !written.has(`${run.caseId}#${run.trial}`));
  for (const slice of inSlices(fresh)) {
    await db.insert(evalResults).values(resultRows(runId, cases, slice));
  }
  const metrics = activationMetrics(cases, runs);
  await db
    .update(evalRuns)
    .set({ status: "finished", done: runs.length, metrics: metrics as unknown as Record<string, unknown>, finishedAt: new Date() })
    .where(and(eq(evalRuns.id, runId), eq(evalRuns.status, "running")));
}

export async function cancelRun(db: Db, teamId: number, runId: number) {
  const [row] = await db
    .update(evalRuns)
    .set({ status: "cancelled", finishedAt: new Date() })
    .where(and(eq(evalRuns.teamId, teamId), eq(evalRuns.id, runId), eq(evalRuns.status, "running")))
    .returning({ id: evalRuns.id });
  if (!row) {
    const existing = await runRow(db, teamId, runId);
    throw specError("RunNotRunning", `run #${runId} is ${existing.status}; only a running run can be cancelled`);
  }
  return { id: runId, status: "cancelled" as const };
}

async function runRow(db: Db, teamId: number, runId: number) {
  const [row] = await db
    .select()
    .from(evalRuns)
    .where(and(eq(evalRuns.teamId, teamId), eq(evalRuns.id, runId)));
  if (!row) throw specError("RunNotFound", `No activation run #${runId} in this team.`);
  return row;
}

/** The shape of docs/api.md#shapes: `metrics` once finished, and every case-run so far. */
export async function runReport(db: Db, teamId: number, runId: number) {
  const row = await runRow(db, teamId, runId);
  const results = await db
    .select()
    .from(evalResults)
    .where(eq(evalResults.runId, runId))
    .orderBy(asc(evalResults.caseId), asc(evalResults.trial));
  return {
    id: row.id,
    status: row.status,
    activator: row.activator,
    modelId: row.modelId,
    promptSet: row.promptSetName,
    trials: row.trials,
    caseRuns: row.caseRuns,
    done: row.done,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.error,
    listingText: row.listingText,
    ...(row.status === "finished" && { metrics: row.metrics }),
    cases: row.cases,
    results: results.map((r) => ({ id: r.caseId, trial: r.trial, loaded: r.loaded, passed: r.passed })),
  };
}

/**
 * The newest runs, newest first. `perSkill: false` leaves each run's recall per skill out of its
 * metrics: a run over a 10,000-skill catalog has thousands, and a list of runs shows rates.
 */
export async function listRuns(db: Db, teamId: number, limit = 50, { perSkill = true } = {}) {
  const rows = await db
    .select({
      id: evalRuns.id,
      status: evalRuns.status,
      activator: evalRuns.activator,
      modelId: evalRuns.modelId,
      promptSet: evalRuns.promptSetName,
      trials: evalRuns.trials,
      caseRuns: evalRuns.caseRuns,
      done: evalRuns.done,
      metrics: perSkill ? evalRuns.metrics : sql<typeof evalRuns.$inferSelect.metrics>`${evalRuns.metrics} - 'perSkill'`,
      createdAt: evalRuns.createdAt,
    })
    .from(evalRuns)
    .where(eq(evalRuns.teamId, teamId))
    .orderBy(desc(evalRuns.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** The newest finished run's recall per skill, read alone: the one run whose skills a page lists. */
export async function latestRecall(db: Db, teamId: number): Promise<{ id: number; perSkill: ActivationMetrics["perSkill"] } | null> {
  const [row] = await db
    .select({ id: evalRuns.id, perSkill: sql<ActivationMetrics["perSkill"]>`${evalRuns.metrics} -> 'perSkill'` })
    .from(evalRuns)
    .where(and(eq(evalRuns.teamId, teamId), eq(evalRuns.status, "finished"), isNotNull(evalRuns.metrics)))
    .orderBy(desc(evalRuns.id))
    .limit(1);
  return row ? { id: row.id, perSkill: row.perSkill ?? {} } : null;
}
