import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/rows";
import type { FailingTool } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { BEFORE_PART, medianOfBuckets, NONE_PART, TOTAL_PART } from "./production-days";
import type { UtcDay } from "./rollups";

/**
 * Is a skill helping? (docs/telemetry.md, "Production figures"): what the agents did while it was
 * loaded — tool calls and failures, rejections, tokens, cost, prompt time — beside the prompts in
 * which no skill was loaded. A version's figures are read from the per-prompt rows
 * `production_prompts` (lib/telemetry/settle.ts); the team's, and the no-skill baseline, from their
 * daily rollup `production_days` (./production-days.ts). A failure rate carries its 95% Wilson
 * interval; a comparison needs a minimum sample.
 */

/** A proportion with its 95% Wilson score interval. */
export interface Rate {
  value: number;
  low: number;
  high: number;
}

export interface Production {
  /** Prompts in which it was loaded (for the baseline: prompts with no skill loaded). */
  prompts: number;
  toolCalls: number;
  toolFailures: number;
  /** Null with no tool call. */
  failureRate: Rate | null;
  /** Tools a person rejected. */
  rejections: number;
  costUsd: number;
  tokens: number;
  /** Median wall time of those prompts, first event to last; null with none. */
  medianPromptMs: number | null;
}

/** Below these, a difference is noise: the page says "n too small" instead of comparing. */
export const MIN_TOOL_CALLS = 30;
export const MIN_PROMPTS = 10;
/** A skill is "costly" when its prompts cost at least this many times the no-skill prompts'. */
export const COSTLY_FACTOR = 2;

const Z95 = 1.959964;

/** The Wilson score interval of `successes` in `trials` (95%): honest at small n and near 0 or 1, unlike ±2 standard errors. Pure. */
export function wilson(successes: number, trials: number): Rate | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z95 / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export type Comparison = "higher" | "lower" | "no clear difference" | "n too small";

/** Whether `a`'s failure rate is above or below `b`'s: only when both intervals are apart, and only with enough calls on each side. Pure. */
export function compareFailureRates(a: Production, b: Production): Comparison {
  if (a.toolCalls < MIN_TOOL_CALLS || b.toolCalls < MIN_TOOL_CALLS || !a.failureRate || !b.failureRate) return "n too small";
  if (a.failureRate.low > b.failureRate.high) return "higher";
  if (a.failureRate.high < b.failureRate.low) return "lower";
  return "no clear difference";
}

/** Cost per prompt in which it was loaded; null with none. */
export function costPerPrompt(production: Production): number | null {
  return production.prompts === 0 ? null : production.costUsd / production.prompts;
}

/** "Loaded, then failing": tools fail more often while it is loaded than in prompts with no skill, beyond both intervals. Pure. */
export function loadedThenFailing(skill: Production, noSkill: Production): boolean {
  return compareFailureRates(skill, noSkill) === "higher";
}

/** "Costly": its prompts cost at least twice what prompts with no skill cost, with enough of each. Pure. */
export function costly(skill: Production, noSkill: Production): boolean {
  const mine = costPerPrompt(skill);
  const baseline = costPerPrompt(noSkill);
  if (skill.prompts < MIN_PROMPTS || noSkill.prompts < MIN_PROMPTS || mine === null || baseline === null || baseline <= 0) return false;
  return mine >= COSTLY_FACTOR * baseline;
}

export const NO_PRODUCTION: Production = {
  prompts: 0,
  toolCalls: 0,
  toolFailures: 0,
  failureRate: null,
  rejections: 0,
  costUsd: 0,
  tokens: 0,
  medianPromptMs: null,
};

/** Figures added up (a median does not add up: null). Pure. */
export function sumProduction(parts: readonly Production[]): Production {
  const sum = (pick: (p: Production) => number) => parts.reduce((total, part) => total + pick(part), 0);
  const calls = sum((p) => p.toolCalls);
  const failures = sum((p) => p.toolFailures);
  return {
    prompts: sum((p) => p.prompts),
    toolCalls: calls,
    toolFailures: failures,
    failureRate: wilson(failures, calls),
    rejections: sum((p) => p.rejections),
    costUsd: sum((p) => p.costUsd),
    tokens: sum((p) => p.tokens),
    medianPromptMs: parts.length === 1 ? (parts[0]?.medianPromptMs ?? null) : null,
  };
}

/**
 * The team's production over the days from `since`, split so the parts add up to the total:
 * each catalog or unknown skill, what ran before any skill was loaded in a prompt that later
 * loaded one (`beforeSkill`), and prompts with no skill loaded at all (`noSkill`, the baseline).
 */
export interface TeamProduction {
  bySkill: Map<string, Production>;
  noSkill: Production;
  beforeSkill: Production;
  total: Production;
}

/** Added-up columns as the driver gives them (a bigint or a sum may come as a string). */
interface SumColumns {
  prompts: number | string;
  calls: number | string;
  failures: number | string;
  rejections: number | string;
  cost: number | string;
  tokens: number | string;
}

/** A part's figures added up over `production_prompts`, with its exact median. */
interface FigureRow extends SumColumns {
  part: string;
  median_ms: number | string | null;
}

/** A part's figures in one prompt-time bucket of `production_days`, added up over the days asked for. */
interface BucketRow extends SumColumns {
  part: string;
  bucket: number | string;
  ms: number | string;
}

function figures(sums: SumColumns, medianPromptMs: number | null): Production {
  const calls = Number(sums.calls);
  const failures = Number(sums.failures);
  return {
    prompts: Number(sums.prompts),
    toolCalls: calls,
    toolFailures: failures,
    failureRate: wilson(failures, calls),
    rejections: Number(sums.rejections),
    costUsd: Number(sums.cost),
    tokens: Number(sums.tokens),
    medianPromptMs,
  };
}

function production(row: FigureRow): Production {
  return figures(row, row.median_ms === null ? null : Math.round(Number(row.median_ms)));
}

const FIGURES = sql`count(*) as prompts, coalesce(sum(tool_calls), 0) as calls, coalesce(sum(tool_failures), 0) as failures,
  coalesce(sum(rejections), 0) as rejections, coalesce(sum(cost_usd), 0) as cost, coalesce(sum(tokens), 0) as tokens,
  percentile_cont(0.5) within group (order by prompt_ms) as median_ms`;

/** The parts' figures from their buckets' rows: sums, and the median from the buckets. Pure. */
function fromBuckets(rows: readonly BucketRow[]): Map<string, Production> {
  const byPart = new Map<string, BucketRow[]>();
  for (const row of rows) {
    const buckets = byPart.get(row.part);
    if (buckets) buckets.push(row);
    else byPart.set(row.part, [row]);
  }
  const parts = new Map<string, Production>();
  for (const [part, buckets] of byPart) {
    const sum = (column: keyof SumColumns) => buckets.reduce((total, row) => total + Number(row[column]), 0);
    const prompts = sum("prompts");
    // A part whose prompts all moved to another (settled again) has rows of nothing left.
    if (prompts <= 0) continue;
    const sums = {
      prompts,
      calls: sum("calls"),
      failures: sum("failures"),
      rejections: sum("rejections"),
      cost: sum("cost"),
      tokens: sum("tokens"),
    };
    const times = buckets.map((row) => ({ bucket: Number(row.bucket), prompts: Number(row.prompts), promptMs: Number(row.ms) }));
    parts.set(part, figures(sums, medianOfBuckets(times)));
  }
  return parts;
}

/** The parts' figures over the days from `since` (every day without it), read from the rollup `production_days`. */
async function partFigures(db: Db, teamId: TeamId, since: UtcDay | null, part?: string): Promise<Map<string, Production>> {
  const result = await db.execute(sql`
    select part, bucket, sum(prompts) as prompts, sum(tool_calls) as calls, sum(tool_failures) as failures,
           sum(rejections) as rejections, sum(cost_usd) as cost, sum(tokens) as tokens, sum(prompt_ms) as ms
    from production_days
    where team_id = ${teamId} ${since === null ? sql`` : sql`and day >= ${since}`} ${part === undefined ? sql`` : sql`and part = ${part}`}
    group by part, bucket`);
  return fromBuckets(rowsOf<BucketRow>(result));
}

/**
 * The team's production from `since`, from the rollup (a row per part, day and time bucket, so
 * the same few rows at a thousand prompts or a million). The total counts each prompt once,
 * whatever it loaded: its own part, ' total'.
 */
export async function teamProduction(db: Db, teamId: TeamId, since: UtcDay): Promise<TeamProduction> {
  const parts = await partFigures(db, teamId, since);
  const part = (name: string) => parts.get(name) ?? NO_PRODUCTION;
  return {
    bySkill: new Map([...parts].filter(([name]) => !name.startsWith(" "))),
    noSkill: part(NONE_PART),
    beforeSkill: part(BEFORE_PART),
    total: part(TOTAL_PART),
  };
}

export interface VersionProduction {
  version: number;
  production: Production;
  /** The tools that failed while this version was loaded, most failures first, with the first error each said (when stored). */
  failingTools: FailingTool[];
}

/** A skill's production per version, all the rollup holds: did v5 do worse than v4? */
export async function versionProduction(db: Db, teamId: TeamId, name: string): Promise<VersionProduction[]> {
  const [figures, failing] = await Promise.all([
    db.execute(sql`
      select version::text as part, ${FIGURES}
      from production_prompts where team_id = ${teamId} and skill_name = ${name} and version is not null
      group by version order by version`),
    db.execute(sql`
      select pp.version, f.tool, sum(f.failures)::int as failures, min(f.error) as error
      from production_prompts pp
      cross join lateral jsonb_to_recordset(pp.failing) as f(tool text, failures int, error text)
      where pp.team_id = ${teamId} and pp.skill_name = ${name} and pp.version is not null and pp.tool_failures > 0
      group by pp.version, f.tool
      order by pp.version, failures desc, f.tool`),
  ]);
  const tools = rowsOf<FailingTool & { version: number }>(failing);
  return rowsOf<FigureRow>(figures).map((row) => ({
    version: Number(row.part),
    production: production(row),
    failingTools: tools
      .filter((tool) => Number(tool.version) === Number(row.part))
      .map(({ tool, failures, error }) => ({ tool, failures: Number(failures), error })),
  }));
}

/** The baseline beside a version's figures: prompts with no skill loaded, every day the rollup holds. */
export async function noSkillProduction(db: Db, teamId: TeamId): Promise<Production> {
  return (await partFigures(db, teamId, null, NONE_PART)).get(NONE_PART) ?? NO_PRODUCTION;
}

/** Versions with their production and how each compares with the one before and with no skill loaded. Pure. */
export function withProduction<V extends { version: number }>(
  versions: readonly V[],
  byVersion: readonly VersionProduction[],
  noSkill: Production,
) {
  return versions.map((version, i) => {
    const mine = byVersion.find((row) => row.version === version.version);
    const production = mine?.production ?? NO_PRODUCTION;
    const previous = i === 0 ? undefined : versions[i - 1];
    const before = previous === undefined ? null : (byVersion.find((row) => row.version === previous.version)?.production ?? NO_PRODUCTION);
    return {
      ...version,
      production,
      failingTools: mine?.failingTools ?? [],
      failureRateVsPrevious: before === null ? null : compareFailureRates(production, before),
      failureRateVsNoSkill: compareFailureRates(production, noSkill),
    };
  });
}
