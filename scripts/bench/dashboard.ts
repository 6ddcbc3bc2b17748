// Dashboard pages as one person opens them: the server's time to the whole HTML of each page.
import { sql } from "drizzle-orm";
import type { App } from "../../lib/contracts/app";
import { startRun } from "../../lib/activation/runs";
import type { RunRequest } from "../../lib/contracts/activation";
import { getTeam, type TeamId } from "../../lib/teams/teams";
import { rollupBackfillStatements } from "../../tests/helpers/migration-sql";

/** The demo team's pages (docs/dashboard.md#pages), those with ids found on the pages that list them. */
export async function demoPages(url: string, cookie: Record<string, string>): Promise<string[]> {
  const firstLink = async (from: string, pattern: RegExp) => {
    const html = await (await fetch(`${url}${from}`, { headers: cookie })).text();
    const href = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? "").find((candidate) => pattern.test(candidate));
    if (!href) throw new Error(`no link matching ${pattern} on ${from}`);
    return href;
  };
  return [
    "/t/demo",
    "/t/demo?sort=views7d",
    "/t/demo/listing",
    "/t/demo/activation",
    "/t/demo/ledger",
    "/t/demo/history",
    "/t/demo/settings",
    "/t/demo/skills/systematic-debugging",
    "/t/demo/skills/flaky-test-triage",
    await firstLink("/t/demo/ledger", /^\/t\/demo\/ledger\/[a-z0-9-]+$/),
    await firstLink("/t/demo/history", /^\/t\/demo\/history\/evaluations\/\d+$/),
    await firstLink("/t/demo/history", /^\/t\/demo\/history\/amendments\/\d+$/),
    await firstLink("/t/demo/activation", /^\/t\/demo\/activation\/runs\/\d+$/),
  ];
}

/** Every page of the 10,000-skill team (what the demo's list has, without its pages of one evaluation or run). */
export function largePages(slug: string): string[] {
  return [
    `/t/${slug}`,
    `/t/${slug}?sort=views7d`,
    `/t/${slug}/listing`,
    `/t/${slug}/activation`,
    `/t/${slug}/ledger`,
    `/t/${slug}/history`,
    `/t/${slug}/settings`,
    `/t/${slug}/skills/skill-00042`,
  ];
}

/** One request's time to the last byte of its HTML, in ms; a page that does not answer 200 stops the bench. */
export async function timeToHtml(url: string, cookie: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers: cookie, redirect: "manual" });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - start;
}

/** A page's times to its HTML: the 95th percentile and the slowest, in ms. */
export interface PageTimes {
  p95: number;
  max: number;
}

/** A page opened `runs` times one after another, after three that warm it: of 20, the 19th slowest is the p95. */
export async function pageTimes(url: string, cookie: Record<string, string>, runs = 20): Promise<PageTimes> {
  for (let i = 0; i < 3; i++) await timeToHtml(url, cookie);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeToHtml(url, cookie));
  times.sort((a, b) => a - b);
  return { p95: times[Math.ceil(times.length * 0.95) - 1] ?? NaN, max: times.at(-1) ?? NaN };
}

/** How much history the 10,000-skill team has: views are what the overview sums, activation runs what its page lists. */
export const LARGE_HISTORY = { views: 1_000_000, sessionSize: 5, families: 1_600, observations: 100_000, recallCases: 5_000 };

/**
 * A busy team of 10,000 skills: 1,000,000 views in 30 days, in agent sessions of five skills of
 * one family (1,600 families, so 8,000 skills are loaded, together, on every day and 2,000 never
 * are), 100,000 observations, and two finished activation runs whose prompt set has a case per
 * skill, so each long list of the activation page has thousands of rows.
 */
export async function largeTeamHistory(app: App, teamId: TeamId): Promise<void> {
  const { views, sessionSize, families, observations, recallCases } = LARGE_HISTORY;
  const sessions = views / sessionSize;
  // In slices of 100,000: one statement of a million rows outlasts a statement's allowance on a busy machine.
  for (let from = 0; from < views; from += 100_000) {
    await app.db.execute(sql`
      insert into skill_views (team_id, skill_name, source, version, session_id, viewed_at)
      select ${teamId}, 'skill-' || lpad((((g / ${sessionSize}) * 7919 % ${families}) * ${sessionSize} + g % ${sessionSize})::text, 5, '0'),
             'file', 1, 's' || (g / ${sessionSize}),
             now() - ((g / ${sessionSize}) * 30 / ${sessions}) * interval '1 day' - (g % ${sessionSize}) * interval '1 minute'
      from generate_series(${from}::int, ${Math.min(from + 100_000, views) - 1}::int) g`);
  }
  await app.db.execute(sql`
    insert into observations (team_id, skill_name, version, task, category, outcome, created_at)
    select ${teamId}, 'skill-' || lpad((g * 7919 % ${families * sessionSize})::text, 5, '0'), 1, 'task ' || g, 'bench',
           (array['success','failure','partial'])[1 + g % 3], now() - (g % 60) * interval '1 day'
    from generate_series(0, ${observations - 1}) g`);
  for (const statement of rollupBackfillStatements()) await app.db.execute(sql.raw(statement));
  const team = await getTeam(app.db, teamId);
  const cases = Array.from({ length: recallCases }, (_, i) => ({
    id: `D${String(i).padStart(5, "0")}`,
    prompt: `Handle task family ${i} end to end`,
    expected: [`skill-${String(i).padStart(5, "0")}`],
    expectNone: false,
  }));
  // Two runs, the later finding more: every third case missed, then every fourth.
  for (const missEvery of [3, 4]) {
    const results = cases.map((c, i) => ({ id: c.id, loaded: i % missEvery === 0 ? [] : c.expected }));
    const run = await startRun({ ...app, model: null }, team, {
      activator: "import",
      promptSet: { name: "every-skill", cases },
      results,
    } as RunRequest);
    await run.done;
  }
}
