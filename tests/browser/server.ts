import { writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { launchBrowser, signInAt, type StoredSession } from "../helpers/browser";
import { syncBody } from "../helpers/installer-catalog";
import { judgeJson, taskOf } from "../helpers/judge";
import { startOpenAiStub, type StubAnswer, type StubRequest } from "../helpers/openai-stub";
import { scratchDatabase } from "../helpers/scratch-database";
import { startServer } from "../helpers/server";

/**
 * The model behind the browser tests' server. As a judge: "better …" tasks improve, every other
 * task stays the same. As an activator: a prompt about a rollout loads rollout-guide, others nothing.
 */
function stubModel({ prompt, tools, afterTool }: StubRequest): StubAnswer {
  if (tools.includes("skill_view")) {
    if (afterTool || !/roll(ed)? ?out/i.test(prompt.split("\n").pop() ?? "")) return "Done.";
    return { tool: "skill_view", args: { name: "rollout-guide" } };
  }
  const task = taskOf(prompt);
  if (task.startsWith("better"))
    return judgeJson({ original: [0.4, 0.5, 0.6], amended: [0.9, 0.8, 0.7] }, `The amended version handles: ${task}`);
  if (task.startsWith("worse"))
    return judgeJson({ original: [0.8, 0.8, 0.8], amended: [0.5, 0.5, 0.5] }, `The amended version drops: ${task}`);
  return judgeJson({ original: [0.7, 0.7, 0.7], amended: [0.7, 0.7, 0.7] }, "No difference for this task.");
}

export const BROWSER_LOGIN = { email: "lead@skillgate.test", password: "browser-test-password" };
/** Whose sessions a lead ends, and whose sign-ins are throttled: people no other test signs in as. */
export const MEMBER_LOGIN = { email: "member@skillgate.test", password: "member-test-password" };
export const THROTTLED_LOGIN = { email: "throttled@skillgate.test", password: "throttled-test-password" };
export const BROWSER_KEY = "sg_browser_test_key_demo_team_0001";
/** The "lab" team is for tests that change skills, so the demo team's figures stay put. */
export const LAB_KEY = "sg_browser_test_key_lab_team_00003";
/** The "cli" team's workspace is replaced wholesale by the CLI tests; "mcp" is written to over MCP. */
export const CLI_KEY = "sg_browser_test_key_cli_team_00004";
export const OTHER_TEAM_KEY = "sg_browser_test_key_other_team_0002";
export const MCP_KEY = "sg_browser_test_key_mcp_team_00005";
/** The "governed" team: auto-promotion turned off, approvals by a lead. */
export const GOVERNED_KEY = "sg_browser_test_key_governed_00007";
/** The "morning" team: a lead's full morning through the pages (create, evaluate, approve, reject, pin, label, roll back, invite). */
export const MORNING_KEY = "sg_browser_test_key_morning_0008";
/** The "installer" team: what the real `skills` installer reads through an install link. */
export const INSTALLER_KEY = "sg_browser_test_key_installer_0006";
/** The "charts" team: the history charts' exact bars and dots, from decisions no other test makes there. */
export const CHARTS_KEY = "sg_browser_test_key_charts_0000008";
/** The "oauth" team: what MCP clients signed in with OAuth do and the connections settings lists. */
export const OAUTH_KEY = "sg_browser_test_key_oauth_00000009";
/** The "outdated" team: amendments the skill moved past, marked out of date and re-proposed (issue 39). */
export const OUTDATED_KEY = "sg_browser_test_key_outdated_00010";
/** The "served" team: what agents get and why — pins, labels, rollbacks under a pin, reasons the team asks for (issue 39). */
export const SERVED_KEY = "sg_browser_test_key_served_0000011";
/** The "evidence" team: production figures per version from telemetry no other test sends (issue 40). */
export const EVIDENCE_KEY = "sg_browser_test_key_evidence_00012";
/**
 * The "large" team: 10,000 workspace skills, `skill-00000` to `skill-09999` (the bench's names),
 * described "Handles task family <i> end to end. Use when family <i> work comes up.", plus the
 * built-in and global skills every team has — 10,009 in its listing — and 10,000 views: the first
 * 2,000 skills viewed 5 times each, in sessions of 5, the other 8,000 never. For pages at 10k
 * skills (issue 41); read it, change nothing in it, so every test sees the same figures.
 */
export const LARGE_KEY = "sg_browser_test_key_large_0000013";
export const LARGE_SKILLS = 10_000;
export const LARGE_VIEWED = 2_000;
export const LARGE_VIEWS = 10_000;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The judge's base URL, for the tests that hold its answers (stubControl). */
    judgeUrl: string;
    /**
     * BROWSER_LOGIN's session, signed in once through the form for the whole run (leadPage). No
     * test ends it: those that sign out or end sessions sign in through the form themselves.
     */
    leadSession: StoredSession;
  }
}

/** Builds the app if its sources changed, then serves it with the demo data for the browser tests. */
export default async function setup(project: TestProject) {
  buildIfNeeded();
  // Answers at once; a test that needs to see an evaluation or a run in flight holds it (stubControl).
  const judge = await startOpenAiStub(stubModel);
  // The pages on PostgreSQL where the tests have one (every integration test runs on both
  // databases; the pages once, on the server most teams deploy), else on the embedded database.
  const scratch = process.env.TEST_DATABASE_URL ? await scratchDatabase("skillgate_browser") : null;
  const server = await startServer({
    ...(scratch && { DATABASE_URL: scratch.url }),
    SKILLGATE_MODEL: "openai-compatible:stub-judge",
    SKILLGATE_OPENAI_BASE_URL: judge.baseUrl,
    SKILLGATE_JUDGE_CONCURRENCY: "2",
    SKILLGATE_DEMO: "1",
    SKILLS_GLOBAL_DIR: "demo/global-skills",
    SKILLGATE_INIT_TEAM: "demo,other-team,lab,cli,mcp,installer,governed,charts,morning,oauth,outdated,served,evidence,large",
    SKILLGATE_INIT_API_KEY: `${BROWSER_KEY},${OTHER_TEAM_KEY},${LAB_KEY},${CLI_KEY},${MCP_KEY},${INSTALLER_KEY},${GOVERNED_KEY},${CHARTS_KEY},${MORNING_KEY},${OAUTH_KEY},${OUTDATED_KEY},${SERVED_KEY},${EVIDENCE_KEY},${LARGE_KEY}`,
    SKILLGATE_INIT_USER_EMAIL: [BROWSER_LOGIN, MEMBER_LOGIN, THROTTLED_LOGIN].map((login) => login.email).join(","),
    SKILLGATE_INIT_USER_PASSWORD: [BROWSER_LOGIN, MEMBER_LOGIN, THROTTLED_LOGIN].map((login) => login.password).join(","),
    // The security tests play clients at different addresses behind a proxy, each browser context
    // sending its own X-Forwarded-For: every real request comes from 127.0.0.1.
    SKILLGATE_TRUST_PROXY: "1",
  });
  const seedStart = Date.now();
  await seedLargeTeam(server.url);
  // 12–16 s on a busy 2-core machine, mostly the sync: said, so a slower start is seen.
  console.log(`skillgate: seeded the large team (10,000 skills, 10,000 views) in ${Date.now() - seedStart} ms`);
  project.provide("baseUrl", server.url);
  project.provide("judgeUrl", judge.baseUrl);
  project.provide("leadSession", await signInOnce(server.url));
  return async () => {
    await server.stop();
    await scratch?.drop();
    // The shared server's log, for a failure the tests only see as a status code.
    if (process.env.SKILLGATE_TEST_SERVER_LOG) writeFileSync(process.env.SKILLGATE_TEST_SERVER_LOG, server.output());
    await judge.close();
  };
}

/** Signs BROWSER_LOGIN in through the sign-in form once; what the browser then holds opens every file's pages. */
async function signInOnce(baseUrl: string): Promise<StoredSession> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    await signInAt(await context.newPage(), `${baseUrl}/t/demo`, BROWSER_LOGIN);
    return await context.storageState();
  } finally {
    await browser.close();
  }
}

/** The "large" team's skills and views, through the API agents and CI use (one sync, ten batches of views). */
async function seedLargeTeam(baseUrl: string): Promise<void> {
  const files = Array.from({ length: LARGE_SKILLS }, (_, i) => {
    const name = `skill-${String(i).padStart(5, "0")}`;
    const description = `Handles task family ${i} end to end. Use when family ${i} work comes up.`;
    return {
      path: `${name}/SKILL.md`,
      content: Buffer.from(`---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n1. A step.\n`),
    };
  });
  const headers = { authorization: `Bearer ${LARGE_KEY}`, "content-type": "application/json" };
  const sync = await fetch(`${baseUrl}/api/v1/skills/sync`, { method: "POST", headers, body: syncBody(files) });
  if (!sync.ok) throw new Error(`syncing the large team answered ${sync.status}: ${await sync.text()}`);
  const batch = 1_000;
  const batches = Array.from({ length: LARGE_VIEWS / batch }, (_, b) =>
    // View j loads skill (j × 7919) mod 2,000: every one of the first 2,000 skills five times, spread over the batches.
    Array.from({ length: batch }, (_, k) => {
      const j = b * batch + k;
      return { skill: `skill-${String((j * 7919) % LARGE_VIEWED).padStart(5, "0")}`, sessionId: `large-${Math.floor(j / 5)}` };
    }),
  );
  await Promise.all(
    batches.map(async (views) => {
      const answer = await fetch(`${baseUrl}/api/v1/usage/views`, { method: "POST", headers, body: JSON.stringify({ views }) });
      if (!answer.ok) throw new Error(`recording the large team's views answered ${answer.status}: ${await answer.text()}`);
    }),
  );
}
