import type { CatalogKey } from "../skills/catalog-cache";
import { unlessCode } from "../errors";
import { pageOf, type Paged } from "../paged";
import { activationsBySkill, per100Prompts, promptsInWindow, typedOnly, type Activations } from "../usage/activations";
import { daysBefore } from "../usage/rollups";
import { lastViewedBySkill, neverLoaded } from "../usage/stats";
import { type CoLoadedPage, type UsageDeps } from "../usage/usage";
import type { RecentPairs } from "../usage/recent-pairs";
import { compareRuns } from "./compare";
import type { ActivationMetrics } from "./metrics";
import { getPromptSet, promptSetSizes } from "./prompt-sets";
import { latestRecall, listRuns } from "./runs";

/** The page of each long list the activation page shows, and the two runs to compare, as its address asks. */
export interface ActivationQuery {
  compare?: { a: number; b: number };
  /** The latest run's recall per skill. */
  recall: number;
  /** Active skills no agent loaded. */
  never: number;
  /** Pairs loaded together. */
  pairs: number;
  /** The prompt set an editor opened, whose cases the page then holds. */
  set?: string;
}

export const FIRST_PAGES: ActivationQuery = { recall: 1, never: 1, pairs: 1 };

/** A skill's recall in one run, with the prompt runs it rests on. */
export interface SkillRecall {
  skill: string;
  recall: number;
  expected: number;
}

/**
 * Everything the activation page shows: runs over time, the latest recall, usage, and a comparison
 * if asked for. Each long list comes as one page of it with its count (lib/paged.ts), so a
 * 10,000-skill catalog is a page of 50 names, not 10,000; runs are read without their recall per
 * skill, which only the latest run's list shows.
 */
export async function activationOverview(
  deps: UsageDeps & { recentPairs: RecentPairs },
  team: CatalogKey,
  query: ActivationQuery = FIRST_PAGES,
  now = new Date(),
) {
  const { db, catalogs, views, recentPairs } = deps;
  await views.flush();
  const [runs, latest, promptSets, editing, catalog, viewed, activated, prompts, pairs] = await Promise.all([
    listRuns(db, team.id, 100, { perSkill: false }),
    latestRecall(db, team.id),
    promptSetSizes(db, team.id),
    // A set that is not there (renamed, deleted) opens nothing; an outage is an outage.
    query.set ? getPromptSet(db, team.id, query.set).catch(unlessCode("PromptSetNotFound")) : null,
    catalogs.catalog(team),
    lastViewedBySkill(db, team.id),
    activationsBySkill(db, team.id, now),
    promptsInWindow(db, team.id, now),
    recentPairs.page(team.id, daysBefore(now, 29), query.pairs),
  ]);
  const finished = runs.filter((run) => run.status === "finished" && run.metrics);
  // A run that is not there (deleted, another team's) shows no comparison; an outage is an outage.
  const comparison = query.compare
    ? await compareRuns(db, team.id, query.compare.a, query.compare.b).catch(unlessCode("RunNotFound"))
    : null;
  const recall = latest ? recallWorstFirst(latest.perSkill) : [];
  const unloaded = catalog.active.filter((skill) => neverLoaded(skill, viewed, activated)).map((skill) => skill.name as string);
  return {
    runs,
    finished: [...finished].reverse().map((run) => ({
      id: run.id,
      activator: run.activator,
      createdAt: run.createdAt,
      metrics: run.metrics as unknown as Omit<ActivationMetrics, "perSkill">,
    })),
    latest: latest && { id: latest.id, metrics: { perSkill: latest.perSkill } },
    recall: pageOf(recall, query.recall),
    promptSets,
    editing,
    usage: {
      // Activations of skills the catalog holds: what the production table lists beside recall.
      skills: [...activated].filter(([name]) => catalog.named.has(name)).map(([name, counts]) => activatedSkill(name, counts, prompts)),
      prompts,
      neverLoaded: pageOf(unloaded, query.never),
      coLoaded: pairs satisfies CoLoadedPage,
    },
    comparison,
  };
}

export type ActivationView = Awaited<ReturnType<typeof activationOverview>>;
export type RecallPage = Paged<SkillRecall>;

/** Recall per skill, worst first, ties by name. */
function recallWorstFirst(perSkill: ActivationMetrics["perSkill"]): SkillRecall[] {
  return Object.entries(perSkill)
    .map(([skill, m]) => ({ skill, recall: m.recall ?? 0, expected: m.expected }))
    .sort((x, y) => x.recall - y.recall || (x.skill < y.skill ? -1 : 1));
}

function activatedSkill(name: string, counts: Activations & { people?: number }, prompts: number) {
  const activations = { proactive: counts.proactive, slash: counts.slash, nested: counts.nested };
  return { name, activations, typedOnly: typedOnly(activations), proactivePer100Prompts: per100Prompts(activations.proactive, prompts) };
}
