import type { Db } from "@/db/client";
import type { CatalogCache, CatalogKey } from "../skills/catalog-cache";
import { usageReport } from "../usage/usage";
import { compareRuns } from "./compare";
import type { ActivationMetrics } from "./metrics";
import { listPromptSets } from "./prompt-sets";
import { listRuns } from "./runs";

/** Everything the activation page shows: runs over time, the latest recall, usage, and a comparison if asked for. */
export async function activationOverview(db: Db, catalogs: CatalogCache, team: CatalogKey, compare?: { a: number; b: number }) {
  const [runs, promptSets, usage] = await Promise.all([listRuns(db, team.id, 100), listPromptSets(db, team.id), usageReport(db, catalogs, team)]);
  const finished = runs.filter((run) => run.status === "finished" && run.metrics);
  const latest = finished[0] ?? null;
  const comparison = compare ? await compareRuns(db, team.id, compare.a, compare.b).catch(() => null) : null;
  return {
    runs,
    finished: [...finished].reverse().map((run) => ({ id: run.id, activator: run.activator, createdAt: run.createdAt, metrics: run.metrics as unknown as ActivationMetrics })),
    latest: latest ? { id: latest.id, metrics: latest.metrics as unknown as ActivationMetrics } : null,
    promptSets,
    usage,
    comparison,
  };
}
