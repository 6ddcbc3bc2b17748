import path from "node:path";
import { ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { teams } from "@/db/schema";
import type { Env, InitConfig } from "../env";
import { DEMO_LEAD_EMAIL, DEMO_TEAM } from "./seed";

/** What start-up does about the demo, decided from the database before start-up writes to it. */
export interface DemoPlan {
  /** Whether to seed the demo team's story (seedDemo still leaves a team that has one alone). */
  seed: boolean;
  /** The folder of global skills: the operator's, else the demo's own while the demo goes in. */
  globalSkillsDir: string | undefined;
  /** The demo's login `npm start` made (a lead and an admin key of the demo team), when the demo goes in. */
  login: InitConfig | null;
  /** Why the demo stays out, said once at start-up; null when it goes in, or was not asked for. */
  notice: string | null;
}

/** The demo's global skills, every team's `## Global directory skills` while the demo is in. */
export const DEMO_GLOBAL_SKILLS_DIR = path.resolve("demo/global-skills");

/**
 * The demo (docs/dashboard.md#the-demo-team) goes only into a database that holds no team but its own: an empty one, or the
 * demo's from an earlier start. A database with any other team is someone's real one, and
 * `SKILLGATE_DEMO` defaults to on, so a server pointed at it by `DATABASE_URL` must not add a demo
 * team, a lead with a printed password, or global skills every real team would see. Decided
 * before the start-up teams are made, so the teams the configuration asks for on a first start do
 * not count (the browser tests' server makes several beside the demo).
 */
export async function planDemo(db: Db, config: Pick<Env, "demo" | "globalSkillsDir" | "demoLogin">): Promise<DemoPlan> {
  const asConfigured = { seed: false, globalSkillsDir: config.globalSkillsDir, login: null };
  if (!config.demo) return { ...asConfigured, notice: null };
  const others = await db.$count(teams, ne(teams.slug, DEMO_TEAM));
  if (others > 0) return { ...asConfigured, notice: demoLeftOut(others) };
  const login = config.demoLogin && {
    teams: [DEMO_TEAM],
    apiKeys: [config.demoLogin.apiKey],
    userEmails: [DEMO_LEAD_EMAIL],
    userPasswords: [config.demoLogin.password],
  };
  return { seed: true, globalSkillsDir: config.globalSkillsDir ?? DEMO_GLOBAL_SKILLS_DIR, login, notice: null };
}

/** The line start-up prints when the demo stays out: why, and how to see it. */
export function demoLeftOut(others: number): string {
  return (
    `not seeding the demo team: the database already holds ${others} team(s) besides "${DEMO_TEAM}", and the demo goes only into an empty database; ` +
    `its global skills and login are left out too (start on an empty database to see the demo; SKILLGATE_DEMO=0 silences this)`
  );
}
