import type { TestProject } from "vitest/node";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { startServer } from "../helpers/server";

export const BROWSER_LOGIN = { email: "lead@skillgate.test", password: "browser-test-password" };
export const BROWSER_KEY = "sg_browser_test_key_demo_team_0001";
/** The "lab" team is for tests that change skills, so the demo team's figures stay put. */
export const LAB_KEY = "sg_browser_test_key_lab_team_00003";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Builds the app if its sources changed, then serves it with the demo data for the browser tests. */
export default async function setup(project: TestProject) {
  buildIfNeeded();
  const server = await startServer({
    SKILLGATE_DEMO: "1",
    SKILLS_GLOBAL_DIR: "demo/global-skills",
    SKILLGATE_INIT_TEAM: "demo,other-team,lab",
    SKILLGATE_INIT_API_KEY: `${BROWSER_KEY},sg_browser_test_key_other_team_0002,${LAB_KEY}`,
    SKILLGATE_INIT_USER_EMAIL: BROWSER_LOGIN.email,
    SKILLGATE_INIT_USER_PASSWORD: BROWSER_LOGIN.password,
  });
  project.provide("baseUrl", server.url);
  return async () => {
    await server.stop();
  };
}
