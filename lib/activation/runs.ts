import { and, asc, desc, eq, sql } from "drizzle-orm";
import pLimit from "p-limit";
import { inSlices } from "@/db/batches";
import type { Db } from "@/db/client";
import { only } from "@/db/rows";
import { evalResults, evalRuns, type PromptCase } from "@/db/schema";
import type { RunRequest } from "../contracts/activation";
import { AppError, specError } from "../errors";
import { failureMessage } from "../evolution/failure-message";
import { logUnexpected } from "../http/respond";
import { requireModel, type ConfiguredModel } from "../evolution/model";
import type { ListingSettings } from "../listing/render";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { loadSkillContent } from "../skills/view";
import { lexicalIndex, listingDocuments } from "./lexical";
import { activationMetrics, casePasses, type CaseRun } from "./metrics";
import { modelActivate } from "./model-activator";
import { getPromptSet, parsePromptSet } from "./prompt-sets";

/** Activation runs (§9): one catalog state, one activator, every case × trial. */

export interface RunDeps {
  db: Db;
  catalogs: CatalogCache;
  model: ConfiguredModel | null;
  judgeConcurrency: number;
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
  const inserted = await deps.db
    .insert(evalRuns)
    .values({
      teamId: team.id,
      promptSetName: set.name,
      cases: set.cases,
      activator: request.activator,
      modelId: model?.id ?? null,
      trials,
      status: "running",
      listingText: listing.text,
      skillVersions: Object.fromEntries(catalog.active.map((skill) => [skill.name, skill.version])),
      caseRuns: imported ? imported.length : set.cases.length * trials,
    })
    .returning({ id: evalRuns.id });
  const runId = only(inserted).id;
  const work = async (): Promise<CaseRun[]> => {
    if (imported) return imported;
    if (request.activator === "lexical") {
      const index = lexicalIndex(listingDocuments(listing));
      return set.cases.flatMap((c) =>
        Array.from({ length: trials }, (_, t) => ({ caseId: c.id, trial: t + 1, loaded: index.activate(c.prompt) })),
      );
    }
    if (!model) throw new Error(`a "${request.activator}" run reached the model activator without a model`);
    return modelRuns(deps, team, model, runId, set.cases, trials, listing.text);
  };
  const done = work()
    .then((runs) => finishRun(deps.db, runId, set.cases, runs))
    .catch(async (error: unknown) => {
      if (error instanceof Cancelled) return;
      logUnexpected(`activation run ${runId} failed`, error);
      await deps.db
        .update(evalRuns)
        .set({ status: "failed", error: failureMessage(error), finishedAt: new Date() })
        .where(and(eq(evalRuns.id, runId), eq(evalRuns.status, "running")));
    });
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

async function modelRuns(
  deps: RunDeps,
  team: RunTeam,
  model: ConfiguredModel,
  runId: number,
  cases: PromptCase[],
  trials: number,
  listingText: string,
): Promise<CaseRun[]> {
  const limit = pLimit(deps.judgeConcurrency);
  const bodyOf = async (name: string) => {
    const content = await loadSkillContent(deps.db, deps.catalogs, team, name).catch(() => null);
    return content ? content.body : null;
  };
  const jobs = cases.flatMap((c) => Array.from({ length: trials }, (_, t) => ({ c, trial: t + 1 })));
  const runs = await Promise.all(
    jobs.map(({ c, trial }) =>
      limit(async (): Promise<CaseRun | null> => {
        if (await isCancelled(deps.db, runId)) return null;
        const loaded = await modelActivate(model, listingText, c.prompt, bodyOf);
        await deps.db.insert(evalResults).values({ runId, caseId: c.id, trial, loaded, passed: casePasses(c, loaded) });
        await deps.db
          .update(evalRuns)
          .set({ done: sql`${evalRuns.done} + 1` })
          .where(eq(evalRuns.id, runId));
        return { caseId: c.id, trial, loaded };
      }),
    ),
  );
  if (await isCancelled(deps.db, runId)) throw new Cancelled();
  return runs.filter((run): run is CaseRun => run !== null);
}

class Cancelled extends Error {}

async function isCancelled(db: Db, runId: number): Promise<boolean> {
  const [row] = await db.select({ status: evalRuns.status }).from(evalRuns).where(eq(evalRuns.id, runId));
  return row?.status === "cancelled";
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

/** After a restart nothing is working on a running run: mark it failed rather than running forever. */
export async function failInterruptedRuns(db: Db): Promise<void> {
  await db
    .update(evalRuns)
    .set({ status: "failed", error: "interrupted: the server stopped while it ran; start it again", finishedAt: new Date() })
    .where(eq(evalRuns.status, "running"));
}
