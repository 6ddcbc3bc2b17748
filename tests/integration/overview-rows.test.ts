import { describe, expect, it } from "vitest";
import { teamOverview } from "@/lib/overview/overview";
import { sparklineText } from "@/lib/overview/sparkline";
import { DEFAULT_QUERY, type SkillHealthRow } from "@/lib/overview/table";
import { syncWorkspace } from "@/lib/skills/sync";
import { ensureTeam } from "@/lib/teams/teams";
import { writeViews, type SkillView } from "@/lib/usage/rollups";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

const DAY = 86_400_000;
/** Noon UTC, so "n days ago" is a whole UTC day whatever the hour the test runs. */
const NOW = new Date(Date.UTC(2026, 5, 15, 12));
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

const WORKSPACE = ["alpha-deploy", "beta-review", "gamma-triage", "systematic-debugging"];

describe.each(testDbKinds)("the overview's skill rows, on %s", (kind) => {
  const t = useTestApp(kind);

  async function withCatalog() {
    const files = WORKSPACE.map((name) => ({
      path: `${name}/SKILL.md`,
      content: Buffer.from(skillMd(name, `Does ${name.replace("-", " ")} work. Use when ${name.split("-")[1]} comes up.`)),
      executable: false,
    }));
    await syncWorkspace(t.app.db, t.app.catalogs, t.alpha.team.id, { files, others: [] });
    return ensureTeam(t.app.db, t.alpha.team.slug);
  }

  const view = (skillName: string, daysAgo: number): SkillView => ({
    teamId: t.alpha.team.id,
    skillName,
    source: "file",
    version: 1,
    keyId: null,
    sessionId: `s-${skillName}-${daysAgo}`,
    viewedAt: ago(daysAgo),
  });
  const views = (skillName: string, perDay: Record<number, number>) =>
    Object.entries(perDay).flatMap(([daysAgo, count]) => Array.from({ length: count }, () => view(skillName, Number(daysAgo))));

  const byName = (rows: SkillHealthRow[], name: string, status = "active") => {
    const row = rows.find((r) => r.name === name && r.status === status);
    if (!row) throw new Error(`no ${status} row for ${name}`);
    return row;
  };

  it("gives each row of the page its views by day over 30 days, adding up to its 7- and 30-day figures", async () => {
    const team = await withCatalog();
    // Today 2, 3 days ago 1, 10 days ago 5, 29 days ago (the first day shown) 1, 30 and 40 days ago outside.
    await writeViews(t.app.db, [...views("alpha-deploy", { 0: 2, 3: 1, 10: 5, 29: 1, 30: 4, 40: 7 }), ...views("beta-review", { 6: 1 })]);
    const { table } = await teamOverview(t.app, team, DEFAULT_QUERY, NOW);
    // 7 built-in skills and 4 workspace ones; the workspace systematic-debugging is shadowed by the built-in.
    expect(table).toMatchObject({ total: 11, matching: 11, page: 1, pages: 1 });
    expect(table.rows.map((row) => `${row.name}/${row.status}`)).toEqual([
      "alpha-deploy/active",
      "beta-review/active",
      "experiment-driven-development/active",
      "finishing-a-branch/active",
      "gamma-triage/active",
      "scientific-method/active",
      "systematic-debugging/active",
      "systematic-debugging/shadowed",
      "test-driven-development/active",
      "verification-before-completion/active",
      "writing-plans/active",
    ]);
    const alpha = byName(table.rows, "alpha-deploy");
    const expected = Array<number>(30).fill(0);
    expected[29] = 2;
    expected[26] = 1;
    expected[19] = 5;
    expected[0] = 1;
    expect(alpha.dailyViews).toEqual(expected);
    expect([alpha.views7d, alpha.views30d]).toEqual([3, 9]);
    expect(sparklineText(alpha.dailyViews)).toBe("3 views in 7 days, 9 views in 30 days");
    const beta = byName(table.rows, "beta-review");
    expect(beta.dailyViews.indexOf(1)).toBe(23);
    expect(sparklineText(beta.dailyViews)).toBe("1 view in 7 days, 1 view in 30 days");
    expect(byName(table.rows, "gamma-triage")).toMatchObject({ views7d: 0, views30d: 0, neverLoaded: true, lastViewedAt: null });
    expect(byName(table.rows, "gamma-triage").dailyViews).toEqual(Array(30).fill(0));
  });

  it("sorts the whole catalog by views, ties in name order, and gives a shadowed skill none of its name's views", async () => {
    const team = await withCatalog();
    await writeViews(t.app.db, [
      ...views("gamma-triage", { 1: 3, 12: 4 }),
      ...views("beta-review", { 2: 7 }),
      ...views("alpha-deploy", { 20: 7 }),
      ...views("systematic-debugging", { 0: 1 }),
      ...views("writing-plans", { 35: 9 }),
    ]);
    const top = async (sort: "views7d" | "views30d") =>
      (await teamOverview(t.app, team, { ...DEFAULT_QUERY, sort, descending: true }, NOW)).table.rows.map(
        (row) => `${row.name}/${row.status} ${row[sort]}`,
      );
    expect((await top("views30d")).slice(0, 5)).toEqual([
      "alpha-deploy/active 7",
      "beta-review/active 7",
      "gamma-triage/active 7",
      "systematic-debugging/active 1",
      "experiment-driven-development/active 0",
    ]);
    expect((await top("views7d")).slice(0, 4)).toEqual([
      "beta-review/active 7",
      "gamma-triage/active 3",
      "systematic-debugging/active 1",
      "alpha-deploy/active 0",
    ]);
    const { table, headline } = await teamOverview(t.app, team, DEFAULT_QUERY, NOW);
    expect(byName(table.rows, "systematic-debugging", "shadowed")).toMatchObject({ views30d: 0, lastViewedAt: null, neverLoaded: false });
    expect(byName(table.rows, "systematic-debugging", "shadowed").dailyViews).toEqual(Array(30).fill(0));
    // Viewed 35 days ago: outside the 30 days, but loaded once, so not "never loaded".
    expect(byName(table.rows, "writing-plans")).toMatchObject({ views30d: 0, neverLoaded: false });
    expect(headline.neverLoaded).toBe(5);
  });
});
