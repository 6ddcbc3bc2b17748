import { and, asc, desc, eq, sql } from "drizzle-orm";
import pLimit from "p-limit";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { only } from "@/db/rows";
import { evalResults, evalRuns, type PromptCase } from "@/db/schema";
import type { RunRequest } from "../contracts/activation";
import { AppError, specError } from "../errors";
import { failureMessage } from "../evolution/failure-message";
import { logUnexpected } from "../log";
import { requireModel, type ConfiguredModel } from "../evolution/model";
import type { ListingSettings } from "../listing/render";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { loadSkillContent } from "../skills/view";
import { lexicalIndex, listingDocuments } from "./lexical";
import { activationMetrics, casePasses, type CaseRun } from "./metrics";
import { modelActivate } from "./model-activator";
import { getPromptSet, parsePromptSet } from "./prompt-sets";
import type { InstanceWork } from "../jobs/work";
import { claimExpired, holdLease, leaseEnd, leaseToken, stillOwned, type Lease } from "../jobs/leases";
import { isDatabaseOutage } from "@/db/outage";
import { getTeam, type TeamId } from "../teams/teams";

/** Activation runs (§9): one catalog state, one activator, every case × trial. */

export interface RunDeps {
  db: Db;
  catalogs: CatalogCache;
  model: ConfiguredModel | null;
  judgeConcurrency: number;
  work: InstanceWork;
}

export type RunTeam = CatalogKey & { listingCap: number; descMax: number; loadHint: string };

export async function startRun(
  deps: RunDeps,
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
  // Lexical and imported runs are worked out before anything is written, and written whole in one
  // transaction: no instance ever sees them half done. A model run is written running, leased.
  const measured = model
    ? null
    : (imported ??
      (() => {
        const index = lexicalIndex(listingDocuments(listing));
        return set.cases.flatMap((c) =>
          Array.from({ length: trials }, (_, t) => ({ caseId: c.id, trial: t + 1, loaded: index.activate(c.prompt) })),
        );
      })());
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
        leaseOwner: measured ? null : token,
        leaseUntil: measured ? null : leaseEnd(deps.work),
        listingText: listing.text,
        skillVersions: Object.fromEntries(catalog.active.map((skill) => [skill.name, skill.version])),
        caseRuns: imported ? imported.length : set.cases.length * trials,
      })
      .returning({ id: evalRuns.id });
    const id = only(inserted).id;
    if (measured) await finishRun(tx, id, set.cases, measured);
    return id;
  });
  return { runId, activator: request.activator, done: measured ? Promise.resolve() : workOnRun(deps, runId, token) };
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
 * Works on a model run until it is finished, cancelled or taken over: the case-runs that have no
 * result yet, one model call each, every result written as it comes. Holds the run's lease while
 * it works; an instance that dies stops renewing it, and another one goes on from the results
 * already written (recoverRuns). Writing twice is harmless: a result is kept once, and only a
 * running run is finished.
 */
export async function workOnRun(deps: RunDeps, runId: number, token: string): Promise<void> {
  const lease = holdLease(deps.db, deps.work, evalRuns, runId, token);
  try {
    const [row] = await deps.db.select().from(evalRuns).where(eq(evalRuns.id, runId));
    if (!row || row.status !== "running") return;
    const model = requireModel(deps.model);
    const team = await getTeam(deps.db, row.teamId as TeamId);
    const written = await results(deps.db, runId);
    const done = new Set(written.map((run) => `${run.caseId}#${run.trial}`));
    const remaining = row.cases
      .flatMap((c) => Array.from({ length: row.trials }, (_, t) => ({ c, trial: t + 1 })))
      .filter(({ c, trial }) => !done.has(`${c.id}#${trial}`));
    await modelRuns(deps, team, model, runId, remaining, row.listingText, lease);
    if (!(await stillOwned(deps.db, evalRuns, runId, lease))) return;
    await finishRun(deps.db, runId, row.cases, await results(deps.db, runId));
  } catch (error) {
    // An outage leaves the run running: its lease runs out and an instance takes it over later.
    if (lease.lost() || isDatabaseOutage(error)) return;
    logUnexpected(`activation run ${runId} failed`, error);
    await deps.db
      .update(evalRuns)
      .set({ status: "failed", error: failureMessage(error), finishedAt: new Date() })
      .where(and(eq(evalRuns.id, runId), eq(evalRuns.status, "running"), eq(evalRuns.leaseOwner, token)))
      .catch((failure: unknown) => logUnexpected(`marking activation run ${runId} failed`, failure));
  } finally {
    lease.release();
  }
}

async function modelRuns(
  deps: RunDeps,
  team: CatalogKey,
  model: ConfiguredModel,
  runId: number,
  jobs: { c: PromptCase; trial: number }[],
  listingText: string,
  lease: Lease,
): Promise<void> {
  const limit = pLimit(deps.judgeConcurrency);
  const bodyOf = async (name: string) => {
    const content = await loadSkillContent(deps.db, deps.catalogs, team, name).catch(() => null);
    return content ? content.body : null;
  };
  await Promise.all(
    jobs.map(({ c, trial }) =>
      limit(async () => {
        if (!(await stillOwned(deps.db, evalRuns, runId, lease))) return;
        const loaded = await modelActivate(model, listingText, c.prompt, bodyOf);
        const kept = await deps.db
          .insert(evalResults)
          .values({ runId, caseId: c.id, trial, loaded, passed: casePasses(c, loaded) })
          .onConflictDoNothing()
          .returning({ id: evalResults.id });
        if (kept.length === 0) return;
        await deps.db
          .update(evalRuns)
          .set({ done: sql`${evalRuns.done} + 1` })
          .where(eq(evalRuns.id, runId));
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

/**
 * Takes over running runs whose lease ran out — their instance died or stalled — and works on
 * them here; a lexical or imported one (worked out in the request that started it) cannot have
 * stopped halfway unless that request died, so it is marked failed. Every instance calls this now
 * and then; SKIP LOCKED lets them share the work without waiting on each other.
 */
export async function recoverRuns(deps: RunDeps): Promise<number[]> {
  const taken: number[] = [];
  for (;;) {
    const claimed = await claimExpired(deps.db, deps.work, evalRuns);
    if (claimed === null) return taken;
    taken.push(claimed.id);
    const [run] = await deps.db.select({ activator: evalRuns.activator }).from(evalRuns).where(eq(evalRuns.id, claimed.id));
    if (run?.activator === "model") {
      // Never awaited, so it must never reject: workOnRun catches what it can and this logs the rest.
      workOnRun(deps, claimed.id, claimed.token).catch((error: unknown) => logUnexpected(`activation run ${claimed.id}`, error));
    } else {
      await deps.db
        .update(evalRuns)
        .set({ status: "failed", error: "interrupted: the server stopped while it ran; start it again", finishedAt: new Date() })
        .where(and(eq(evalRuns.id, claimed.id), eq(evalRuns.status, "running")));
    }
  }
}

async function finishRun(db: Db, runId: number, cases: PromptCase[], runs: CaseRun[]): Promise<void> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const existing = await db
    .select({ caseId: evalResults.caseId, trial: evalResults.trial })
    .from(evalResults)
    .where(eq(evalResults.runId, runId));
  const written = new Set(existing.map((r) => `${r.caseId}#${r.trial}`));
  const fresh = runs.filter((run) => !written.has(`${run.caseId}#${run.trial}`));
  for (const slice of inSlices(fresh)) {
    await db.insert(evalResults).values(
      slice.map((run) => {
        const promptCase = byId.get(run.caseId);
        if (!promptCase) throw new Error(`activation run ${runId} has a result for "${run.caseId}", which is not one of its cases`);
        return { runId, caseId: run.caseId, trial: run.trial, loaded: run.loaded, passed: casePasses(promptCase, run.loaded) };
      }),
    );
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

/** The §11.1 shape: `metrics` once finished, and every case-run so far. */
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

export async function listRuns(db: Db, teamId: number, limit = 50) {
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
      metrics: evalRuns.metrics,
      createdAt: evalRuns.createdAt,
    })
    .from(evalRuns)
    .where(eq(evalRuns.teamId, teamId))
    .orderBy(desc(evalRuns.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
