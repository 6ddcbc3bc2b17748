import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teams } from "@/db/schema";
import { DEMO_GLOBAL_SKILLS_DIR, planDemo } from "@/lib/demo/plan";
import { seedDemo } from "@/lib/demo/seed";
import { applyInitConfig } from "@/lib/teams/init";
import { ensureTeam } from "@/lib/teams/teams";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * Issue 38, point 9: `npm start` (the demo on by default) pointed at a database that holds real
 * teams seeded the demo team, its lead and its global skills into it. The demo now goes only into
 * a database that holds no team but its own, and start-up says why when it stays out.
 */
describe.each(testDbKinds)("where the demo goes, on %s", (kind) => {
  const t = useTestApp(kind);
  const config = {
    demo: true,
    globalSkillsDir: undefined,
    demoLogin: { apiKey: "sg_demo_plan_key_0123456789abcdef", password: "demo-pass" },
  };
  const slugs = async () => (await t.app.db.select({ slug: teams.slug }).from(teams).orderBy(asc(teams.slug))).map((row) => row.slug);
  const demoIn = {
    seed: true,
    globalSkillsDir: DEMO_GLOBAL_SKILLS_DIR,
    login: {
      teams: ["demo"],
      apiKeys: ["sg_demo_plan_key_0123456789abcdef"],
      userEmails: ["demo@skillgate.local"],
      userPasswords: ["demo-pass"],
    },
    notice: null,
  };

  it("seeds an empty database, with the demo's login and global skills, and the demo's own on a restart", async () => {
    // The test app's two teams stand for a real database's: this test starts from none.
    await t.app.db.delete(teams);
    const plan = await planDemo(t.app.db, config);
    expect(plan).toEqual(demoIn);
    await applyInitConfig(t.app.db, plan.login!);
    expect(await seedDemo(t.app)).toBe(true);
    expect(await slugs()).toEqual(["demo"]);
    // A restart on the demo's database: the same plan, and nothing seeded twice.
    expect(await planDemo(t.app.db, config)).toEqual(demoIn);
    expect(await seedDemo(t.app)).toBe(false);
  });

  it("leaves the demo, its login and its global skills out of a database that holds another team, and says why", async () => {
    expect(await slugs()).toEqual(["alpha", "beta"]);
    const notice =
      'not seeding the demo team: the database already holds 2 team(s) besides "demo", and the demo goes only into an empty database; ' +
      "its global skills and login are left out too (start on an empty database to see the demo; SKILLGATE_DEMO=0 silences this)";
    expect(await planDemo(t.app.db, config)).toEqual({ seed: false, globalSkillsDir: undefined, login: null, notice });
    // A demo team already there (an earlier start seeded it) is not a real team, and changes nothing.
    await ensureTeam(t.app.db, "demo");
    expect((await planDemo(t.app.db, config)).notice).toBe(notice);
    // The operator's own global folder stays theirs.
    expect((await planDemo(t.app.db, { ...config, globalSkillsDir: "/srv/skills" })).globalSkillsDir).toBe("/srv/skills");
    expect(await slugs()).toEqual(["alpha", "beta", "demo"]);
  });

  it("does nothing about the demo with SKILLGATE_DEMO=0, and says nothing", async () => {
    await t.app.db.delete(teams);
    expect(await planDemo(t.app.db, { ...config, demo: false })).toEqual({
      seed: false,
      globalSkillsDir: undefined,
      login: null,
      notice: null,
    });
  });
});
