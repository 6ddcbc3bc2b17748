// Dashboard pages as one person opens them: the server's time to the whole HTML of each page.
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { ensureTeam } from "../../lib/teams/teams";
import { rollupBackfillStatements } from "../../tests/helpers/migration-sql";

/** The demo team's pages (§10), those with ids found on the pages that list them. */
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

/** One request's time to the last byte of its HTML, in ms; a page that does not answer 200 stops the bench. */
export async function timeToHtml(url: string, cookie: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers: cookie, redirect: "manual" });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - start;
}

/** A page opened `runs` times one after another, after three that warm it: the median and the slowest. */
export async function pageTimes(url: string, cookie: Record<string, string>, runs = 15): Promise<{ p50: number; max: number }> {
  for (let i = 0; i < 3; i++) await timeToHtml(url, cookie);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timeToHtml(url, cookie));
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)] ?? NaN, max: times.at(-1) ?? NaN };
}

/**
 * Views of a 10,000-skill catalog as a busy team makes them: 200,000 over 30 days, every skill
 * viewed, so the day rollup holds a row for most skills on most days and summing every skill's
 * views (what sorting by views needs) has real work to do.
 */
export async function viewsOfEverySkill(db: Database["db"], slug: string, count: number, views = 200_000): Promise<void> {
  const team = await ensureTeam(db, slug);
  await db.execute(sql`
    insert into skill_views (team_id, skill_name, source, version, session_id, viewed_at)
    select ${team.id}, 'skill-' || lpad(((g * 7919) % ${count})::text, 5, '0'), 'file', 1, null,
           now() - (g % 30) * interval '1 day' - (g % 600) * interval '1 second'
    from generate_series(0, ${views - 1}) g`);
  for (const statement of rollupBackfillStatements()) await db.execute(sql.raw(statement));
}
