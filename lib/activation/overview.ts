import type { CatalogKey } from "../skills/catalog-cache";
import { unlessCode } from "../errors";
import { usageReport, type UsageDeps } from "../usage/usage";
import { compareRuns } from "./compare";
import type { ActivationMetrics } from "./metrics";
import { listPromptSets } from "./prompt-sets";
import { listRuns } from "./runs";

/** Everything the activation page shows: runs over time, the latest recall, usage, and a comparison if asked for. */
export async function activationOverview(deps: UsageDeps, team: CatalogKey, compare?: { a: number; b: number }) {
  const { db } = deps;
  const [runs, promptSets, usage] = await Promise.all([listRuns(db, team.id, 100), listPromptSets(db, team.id), usageReport(deps, team)]);
  const finished = runs.filter((run) => run.status === "finished" && run.metrics);
  const latest = finished[0] ?? null;
  // A run that is not there (deleted, another team's) shows no comparison; an outage is an outage.
  const comparison = compare ? await compareRuns(db, team.id, compare.a, compare.b).catch(unlessCode("RunNotFound")) : null;
  return {
    runs,
    finished: [...finished].reverse().map((run) => ({
      id: run.id,
      activator: run.activator,
      createdAt: run.createdAt,
      metrics: run.metrics as unknown as ActivationMetrics,
    })),
    latest: latest ? { id: latest.id, metrics: latest.metrics as unknown as ActivationMetrics } : null,
    promptSets,
    usage,
    comparison,
  };
}
