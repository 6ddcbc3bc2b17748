import path from "node:path";
import { inSlices } from "@/db/batches";
import { and, eq, gt, inArray } from "drizzle-orm";
import {
  amendments,
  apiKeys,
  evalRuns,
  evaluations,
  learnedSkills,
  learnedSkillVersions,
  listingSnapshots,
  skillEvents,
  workspaceSkills,
  workspaceSkillVersions,
} from "@/db/schema";
import { parsePromptSet, savePromptSet } from "../activation/prompt-sets";
import { startRun } from "../activation/runs";
import type { App } from "../contracts/app";
import { createApiKey } from "../auth/api-keys";
import type { Role, Scope } from "../auth/scopes";
import { ensureUser } from "../auth/users";
import type { LedgerInput } from "../ledger/input";
import { proposeAmendment } from "../evolution/amendments";
import { evaluateAmendment } from "../evolution/evaluate";
import type { JudgeAnswer } from "../evolution/judge";
import type { Actor } from "../learned/actor";
import { verifyLearned } from "../learned/verify";
import { insertLearned, promoteLearned, rollbackLearned, updateLearned, type NewLearned } from "../learned/write";
import { appendRecord } from "../ledger/append";
import type { LedgerSlug } from "../ledger/records";
import { composeSkillMd } from "../skills/skill-md";
import { syncWorkspace } from "../skills/sync";
import { readDiskTree, type TreeFile } from "../skills/tree";
import { ensureTeam, setMembership, type TeamId } from "../teams/teams";
import { writeObservations } from "../evolution/observations";
import { writeViews } from "../usage/rollups";
import type { SkillView } from "../usage/rollups";
import { recordedJudge } from "./recorded-judge";
import { seedTelemetry } from "./telemetry";
import { updateTeamSettings } from "../listing/settings";

/**
 * The demo team (docs/dashboard.md#the-demo-team), written as the story it tells: each step is done by the person or agent
 * who did it, through the same functions the API calls, and every row it writes is then dated
 * to when the story says it happened. So History, the versions table, provenance, observations
 * and views agree on who did what, when, and which version it was. Runs once: a team whose
 * catalog has changed before is left alone.
 */
export const DEMO_TEAM = "demo";
/** The demo team's lead: the person `npm start` prints the sign-in of. */
export const DEMO_LEAD_EMAIL = "demo@skillgate.local";
const DAY = 24 * 60 * 60 * 1000;

export interface SeedOptions {
  demoDir?: string;
  /** Called once it is clear the story will be written (a fresh demo team), before it is. */
  onSeeding?: () => void;
}

export async function seedDemo(app: App, { demoDir = path.resolve("demo"), onSeeding }: SeedOptions = {}): Promise<boolean> {
  const team = await ensureTeam(app.db, DEMO_TEAM, "Demo team");
  if (team.catalogRevision > 0) return false;
  onSeeding?.();
  const teamId = team.id;
  const { lead, editor, claudeCode, ciRunner } = await demoCast(app, teamId);
  const current = () => ensureTeam(app.db, DEMO_TEAM);
  const deps = { ...app, model: recordedJudge(JUDGEMENTS), judgeConcurrency: 4 };
  const at = <T>(daysAgo: number, step: () => Promise<T>) => happened(app, teamId, daysAgo, step);

  const tree = readDiskTree(path.join(demoDir, "workspace-skills")).files;
  const firstFolders = ["ci-green-gate", "db-migration-review", "incident-postmortem"];
  const inFirstFolders = (file: { path: string }) => firstFolders.includes(file.path.split("/")[0] ?? "");
  await at(34, () => syncWorkspace(app.db, app.catalogs, teamId, { files: tree.filter(inFirstFolders), others: [] }));
  await at(31, () => syncWorkspace(app.db, app.catalogs, teamId, { files: tree, others: [] }));
  await at(27, () => insertLearned(app, teamId, claudeCode("7f3a-release"), RELEASE_CHECKLIST));
  await at(26, () => promoteLearned(app, teamId, lead, "release-checklist"));
  await at(22, () => insertLearned(app, teamId, editor, FLAKY_TEST_TRIAGE));
  await recordRuns(app, teamId, (daysAgo) => daysAgo > 4.6);
  await savePromptSet(app.db, teamId, parsePromptSet(ROUTING));
  await at(6, async () => (await startRun(app, await current(), { promptSet: { name: ROUTING.name }, activator: "lexical" })).done);
  const triage = await at(4.6, async () =>
    proposeAmendment(app.db, app.catalogs, await current(), ciRunner("e2e-checkout"), "flaky-test-triage", TRIAGE_AMENDMENT),
  );
  await at(4.5, async () => evaluateAmendment(deps, await current(), lead, triage.id));
  await at(3.6, () =>
    updateLearned(app, teamId, editor, "flaky-test-triage", {
      body: SHORTER_TRIAGE,
      expected: { version: 1 },
      reason: "shorter: most flaky tests pass on a retry",
    }),
  );
  await at(3.4, () =>
    rollbackLearned(app, teamId, lead, "flaky-test-triage", { toVersion: 1, reason: "the shorter version skipped the shared-state check" }),
  );
  await at(3.2, () => syncWorkspace(app.db, app.catalogs, teamId, { files: tree.map(rewriteChangelogDescription), others: [] }));
  await recordRuns(app, teamId, (daysAgo) => daysAgo <= 4.6 && daysAgo > 1.8);
  await at(2, () => insertLearned(app, teamId, claudeCode("91bc-triage"), TRIAGE_NOTES));
  const release = await at(1.8, async () =>
    proposeAmendment(app.db, app.catalogs, await current(), claudeCode("7f3a-release"), "release-checklist", RELEASE_AMENDMENT),
  );
  await at(1.7, async () => evaluateAmendment(deps, await current(), lead, release.id));
  // Having seen a change go live on its own, the lead wants to approve the next ones.
  await at(1.5, () => updateTeamSettings(app.db, app.catalogs, teamId, { autoPromote: false }));
  await at(1.2, () => verifyLearned(app, teamId, lead, "release-checklist", { tier: "reviewed" }));
  await at(1, async () => (await startRun(app, await current(), { promptSet: { name: ROUTING.name }, activator: "lexical" })).done);
  await recordRuns(app, teamId, (daysAgo) => daysAgo <= 1.8 && daysAgo > 0.8);
  const seed = await at(0.8, async () =>
    proposeAmendment(app.db, app.catalogs, await current(), ciRunner("nightly-ci"), "flaky-test-triage", SEED_AMENDMENT),
  );
  // Judged improved with auto-promotion off: it waits in the lead's queue.
  await at(0.7, async () => evaluateAmendment(deps, await current(), editor, seed.id));
  await recordRuns(app, teamId, (daysAgo) => daysAgo <= 0.8);
  await seedViews(app, teamId);
  await seedTelemetry(app, teamId);
  await seedLedgers(app, teamId);
  return true;
}

/**
 * The people and the agents of the story: the lead who signs in, an editor, and two write keys named
 * as a team names them — the editor's own coding agent and the CI runner's — so History says whose
 * agent did what.
 */
async function demoCast(app: App, teamId: TeamId) {
  const person = async (email: string, role: Role): Promise<Actor & { kind: "person" }> => {
    const user = await ensureUser(app.db, email);
    await setMembership(app.db, teamId, user.id, role, { keepHigher: true });
    return { kind: "person", userId: user.id, email: user.email, role };
  };
  const lead = await person(DEMO_LEAD_EMAIL, "lead");
  const editor = await person("sam@example.com", "editor");
  const scopes: Scope[] = ["read", "write"];
  const keyOf = async (name: string, createdBy: number) => {
    const key = await createApiKey(app.db, { teamId, name, scopes, createdBy });
    // Made when the team started, a month before the story's first agent step.
    await app.db
      .update(apiKeys)
      .set({ createdAt: new Date(Date.now() - 34 * DAY) })
      .where(eq(apiKeys.id, key.id));
    return (session: string): Actor => ({ kind: "key", keyId: key.id, credential: "key", scopes, sessionId: session });
  };
  const claudeCode = await keyOf("sam's claude-code", editor.userId);
  const ciRunner = await keyOf("ci-runner", lead.userId);
  return { lead, editor, claudeCode, ciRunner };
}

/**
 * Runs one step of the story, then dates what it wrote: every row of the team written in the
 * last hour (the steps before it are already days old) gets the step's time.
 */
async function happened<T>(app: App, teamId: TeamId, daysAgo: number, step: () => Promise<T>): Promise<T> {
  const result = await step();
  const when = new Date(Date.now() - daysAgo * DAY);
  const fresh = new Date(Date.now() - 60 * 60 * 1000);
  const { db } = app;
  await db
    .update(workspaceSkills)
    .set({ updatedAt: when })
    .where(and(eq(workspaceSkills.teamId, teamId), gt(workspaceSkills.updatedAt, fresh)));
  await db
    .update(workspaceSkillVersions)
    .set({ createdAt: when })
    .where(and(eq(workspaceSkillVersions.teamId, teamId), gt(workspaceSkillVersions.createdAt, fresh)));
  await db
    .update(learnedSkills)
    .set({ createdAt: when })
    .where(and(eq(learnedSkills.teamId, teamId), gt(learnedSkills.createdAt, fresh)));
  await db
    .update(learnedSkills)
    .set({ updatedAt: when })
    .where(and(eq(learnedSkills.teamId, teamId), gt(learnedSkills.updatedAt, fresh)));
  await db
    .update(learnedSkillVersions)
    .set({ createdAt: when })
    .where(
      and(
        gt(learnedSkillVersions.createdAt, fresh),
        inArray(
          learnedSkillVersions.skillId,
          db.select({ id: learnedSkills.id }).from(learnedSkills).where(eq(learnedSkills.teamId, teamId)),
        ),
      ),
    );
  await db
    .update(skillEvents)
    .set({ at: when })
    .where(and(eq(skillEvents.teamId, teamId), gt(skillEvents.at, fresh)));
  await db
    .update(listingSnapshots)
    .set({ takenAt: when })
    .where(and(eq(listingSnapshots.teamId, teamId), gt(listingSnapshots.takenAt, fresh)));
  await db
    .update(amendments)
    .set({ createdAt: when })
    .where(and(eq(amendments.teamId, teamId), gt(amendments.createdAt, fresh)));
  await db
    .update(evaluations)
    .set({ startedAt: new Date(when.getTime() - 90_000), finishedAt: when })
    .where(and(eq(evaluations.teamId, teamId), gt(evaluations.startedAt, fresh)));
  await db
    .update(evalRuns)
    .set({ createdAt: new Date(when.getTime() - 20_000), finishedAt: when })
    .where(and(eq(evalRuns.teamId, teamId), gt(evalRuns.createdAt, fresh)));
  return result;
}

/** Which version of each skill was served at a time, from the versions the story has written so far. */
async function versionsServed(app: App, teamId: TeamId): Promise<(skill: string, at: Date) => { source: string; version: number } | null> {
  const learned = await app.db
    .select({ name: learnedSkills.name, version: learnedSkillVersions.version, createdAt: learnedSkillVersions.createdAt })
    .from(learnedSkillVersions)
    .innerJoin(learnedSkills, eq(learnedSkills.id, learnedSkillVersions.skillId))
    .where(eq(learnedSkills.teamId, teamId));
  const workspace = await app.db
    .select({ name: workspaceSkillVersions.name, version: workspaceSkillVersions.version, createdAt: workspaceSkillVersions.createdAt })
    .from(workspaceSkillVersions)
    .where(eq(workspaceSkillVersions.teamId, teamId));
  const timeline = new Map<string, { source: string; version: number; createdAt: Date }[]>();
  for (const [source, rows] of [
    ["learned", learned],
    ["file", workspace],
  ] as const) {
    for (const row of rows) timeline.set(row.name, [...(timeline.get(row.name) ?? []), { source, ...row }]);
  }
  return (skill, at) => {
    const versions = timeline.get(skill);
    if (!versions) return { source: "builtin", version: 1 };
    const served = versions.filter((v) => v.createdAt <= at).sort((a, b) => b.version - a.version)[0];
    return served ? { source: served.source, version: served.version } : null;
  };
}

const rewriteChangelogDescription = (file: TreeFile): TreeFile =>
  file.path === "changelog-writer/SKILL.md"
    ? {
        ...file,
        content: Buffer.from(
          "---\nname: changelog-writer\ndescription: Writes release notes telling users what changed; use when a version ships. Groups entries as Added, Changed, Fixed.\n---\n# Changelog writer\n\nGroup entries under Added, Changed, Fixed, Removed. One line each, imperative mood, with the PR number.\n",
        ),
      }
    : file;

/** Runs of the learned and workspace skills over the past weeks, with the failures an amendment would learn from. */
const RUNS: [
  skill: string,
  daysAgo: number,
  outcome: "success" | "failure" | "partial",
  task: string,
  extra?: { errorType?: string; feedback?: string; failedToolCalls?: string[] },
][] = [
  ["release-checklist", 20, "success", "Release v2.14.0 of the billing service"],
  [
    "release-checklist",
    16,
    "failure",
    "Release v2.15.0 of the billing service",
    { errorType: "SkippedStage", feedback: "went from 5% to 100% without the 50% stage", failedToolCalls: ["deploy promote"] },
  ],
  ["release-checklist", 13, "success", "Release v1.9.2 of the search API"],
  [
    "release-checklist",
    9,
    "partial",
    "Release v2.16.0 with a database migration",
    { errorType: "MissingStep", feedback: "the checklist says nothing about running migrations before the canary" },
  ],
  ["release-checklist", 6, "success", "Hotfix release v2.16.1"],
  [
    "release-checklist",
    2,
    "failure",
    "Release v3.0.0 with a breaking API change",
    { errorType: "MissingStep", feedback: "no step to announce breaking changes to API consumers" },
  ],
  ["flaky-test-triage", 12, "success", "Triage flaky test/payments.test.ts"],
  ["flaky-test-triage", 5, "partial", "Triage flaky e2e checkout test", { feedback: "did not consider network timeouts in CI" }],
  ["flaky-test-triage", 1, "success", "Triage flaky snapshot test in the web app"],
  [
    "flaky-test-triage",
    1.4,
    "failure",
    "Triage flaky test that fails only with some shuffle seeds",
    { errorType: "NotReproduced", feedback: "ran it 50 times alone and gave up; the failing seed was in the CI log" },
  ],
  [
    "flaky-test-triage",
    1.1,
    "partial",
    "Triage flaky inventory test in the nightly run",
    { feedback: "found the order dependency only after an hour of bisecting" },
  ],
  ["db-migration-review", 10, "success", "Review migration adding orders.status index"],
  [
    "db-migration-review",
    3,
    "failure",
    "Review migration changing users.email type",
    { errorType: "MissedLock", feedback: "approved a type change that rewrote a 40M-row table" },
  ],
  ["release-checklist", 0.5, "success", "Release v3.0.1 with a migration and an announced API change"],
];

/** Records the runs the filter picks, each against the version that was served when it ran. */
async function recordRuns(app: App, teamId: TeamId, pick: (daysAgo: number) => boolean): Promise<void> {
  const now = Date.now();
  const served = await versionsServed(app, teamId);
  const rows = RUNS.filter(([, daysAgo]) => pick(daysAgo)).map(([skillName, daysAgo, outcome, task, extra = {}]) => {
    const createdAt = new Date(now - daysAgo * DAY);
    const version = served(skillName, createdAt)?.version;
    if (version === undefined) throw new Error(`the demo records a run of ${skillName} before it exists`);
    return {
      teamId,
      skillName,
      version,
      task,
      category: skillName === "db-migration-review" ? "review" : skillName === "flaky-test-triage" ? "testing" : "release",
      outcome,
      errorType: extra.errorType ?? null,
      feedback: extra.feedback ?? null,
      failedToolCalls: extra.failedToolCalls ?? null,
      sessionId: `demo-run-${daysAgo}`,
      createdAt,
    };
  });
  await writeObservations(app.db, rows);
}

const d = (correctness: number, completeness: number, adherence: number) => ({ correctness, completeness, adherence });

/**
 * Recorded judgements of the demo's runs: the release amendment helps where the runs failed, the
 * seed amendment where a flaky test could not be reproduced. A judgement that names a passage of an
 * amendment (after the task, on its own line) is that amendment's; the others are any amendment's.
 */
const JUDGEMENTS: Record<string, JudgeAnswer> = {
  "Triage flaky test/payments.test.ts\n--sequence.seed": {
    original: d(0.8, 0.7, 0.8),
    amended: d(0.8, 0.7, 0.8),
    rationale: "No difference: this unit test fails alone, so the seed step never comes up.",
  },
  "Triage flaky e2e checkout test\n--sequence.seed": {
    original: d(0.5, 0.4, 0.7),
    amended: d(0.5, 0.45, 0.7),
    rationale: "The seed step helps a little; this e2e test fails on the network, not on order.",
  },
  "Triage flaky snapshot test in the web app\n--sequence.seed": {
    original: d(0.8, 0.8, 0.8),
    amended: d(0.8, 0.8, 0.8),
    rationale: "No difference for a snapshot test that passes.",
  },
  "Triage flaky test that fails only with some shuffle seeds": {
    original: d(0.3, 0.35, 0.6),
    amended: d(0.85, 0.85, 0.8),
    rationale: "Only the amended version says to take the failing seed from the CI log and rerun with it.",
  },
  "Triage flaky inventory test in the nightly run": {
    original: d(0.5, 0.45, 0.7),
    amended: d(0.8, 0.8, 0.75),
    rationale: "Rerunning with the recorded seed reproduces the order dependency at once, instead of an hour of bisecting.",
  },
  "Release v2.14.0 of the billing service": {
    original: d(0.8, 0.8, 0.9),
    amended: d(0.8, 0.85, 0.9),
    rationale: "Both versions cover a routine release; the amended one names the 50% hold explicitly.",
  },
  "Release v2.15.0 of the billing service": {
    original: d(0.4, 0.5, 0.6),
    amended: d(0.9, 0.85, 0.85),
    rationale: "The original lets an agent jump from 5% to 100%; the amended one forbids skipping the 50% stage.",
  },
  "Release v1.9.2 of the search API": {
    original: d(0.85, 0.8, 0.9),
    amended: d(0.85, 0.8, 0.9),
    rationale: "No difference for a release without migrations or API changes.",
  },
  "Release v2.16.0 with a database migration": {
    original: d(0.3, 0.3, 0.6),
    amended: d(0.85, 0.9, 0.8),
    rationale: "Only the amended version says to run migrations before traffic moves.",
  },
  "Hotfix release v2.16.1": {
    original: d(0.8, 0.75, 0.85),
    amended: d(0.75, 0.75, 0.8),
    rationale: "The extra announcement step is noise for a hotfix.",
  },
  "Release v3.0.0 with a breaking API change": {
    original: d(0.35, 0.3, 0.7),
    amended: d(0.8, 0.85, 0.8),
    rationale: "The amended version adds the announcement a breaking change needs.",
  },
  "Triage flaky test/payments.test.ts": {
    original: d(0.8, 0.7, 0.8),
    amended: d(0.75, 0.7, 0.8),
    rationale: "The added network step does not apply to this unit test.",
  },
  "Triage flaky e2e checkout test": {
    original: d(0.5, 0.4, 0.7),
    amended: d(0.6, 0.6, 0.7),
    rationale: "Mentioning network timeouts helps a little; the order of checks is unchanged.",
  },
  "Triage flaky snapshot test in the web app": {
    original: d(0.8, 0.8, 0.8),
    amended: d(0.8, 0.75, 0.75),
    rationale: "The longer procedure is slightly harder to follow for a snapshot test.",
  },
};

type Step = [daysAgo: number, input: LedgerInput];

/** Three plans over the past weeks: confirmed, refuted, inconclusive and skipped predictions, and two left open. */
const PLANS: Record<string, Step[]> = {
  "cache-key-fix": [
    [
      24,
      {
        action: "record-observation",
        text: "Cache hit rate on /search fell from 0.92 to 0.31 after Tuesday's deploy",
        skill: "systematic-debugging",
      },
    ],
    [24, { action: "record-hypothesis", text: "The cache key now includes the request timestamp" }],
    [
      24,
      {
        action: "record-prediction",
        id: "H1",
        text: "Keys for two identical requests a second apart differ",
        falsifiedBy: "node scripts/print-cache-key.js /search?q=a && sleep 1 && node scripts/print-cache-key.js /search?q=a",
      },
    ],
    [23, { action: "record-verdict", id: "P1", verdict: "confirmed", evidence: "search:q=a:1761900001 vs search:q=a:1761900002" }],
    [
      23,
      {
        action: "record-prediction",
        id: "H1",
        text: "Dropping the timestamp restores a hit rate above 0.9",
        falsifiedBy: "npm run bench -- cache | grep hit_rate",
      },
    ],
    [22, { action: "record-verdict", id: "P2", verdict: "confirmed", evidence: "hit_rate 0.94 over 10,000 requests" }],
    [22, { action: "record-hypothesis", text: "The CDN also varies on the timestamp header" }],
    [
      22,
      {
        action: "record-prediction",
        id: "H2",
        text: "The CDN's Vary header lists X-Request-Time",
        falsifiedBy: "curl -sI https://cdn.example.com/search?q=a | grep -i vary",
      },
    ],
    [21, { action: "record-verdict", id: "P3", verdict: "refuted", evidence: "vary: accept-encoding" }],
    [
      21,
      {
        action: "record-conclusion",
        text: "The key builder took the timestamp from a refactor of the request context; fixed in #4121 with a test.",
      },
    ],
  ],
  "release-canary": [
    [14, { action: "record-hypothesis", text: "A 5% canary catches the regressions our staging misses", skill: "release-checklist" }],
    [
      14,
      {
        action: "record-prediction",
        id: "H1",
        text: "The last three regressions would have tripped the canary's error-rate alarm",
        falsifiedBy: "python scripts/replay_canary.py --incidents 2026-09,2026-10",
      },
    ],
    [
      12,
      {
        action: "record-verdict",
        id: "P1",
        verdict: "confirmed",
        evidence: "3 of 3 incidents exceed the 1.5x error-rate threshold within 12 minutes",
      },
    ],
    [
      12,
      {
        action: "record-prediction",
        id: "H1",
        text: "The canary adds less than 40 minutes to a release",
        falsifiedBy: "python scripts/release_timing.py --last 10",
      },
    ],
    [8, { action: "record-verdict", id: "P2", verdict: "inconclusive", evidence: "only 2 releases used the canary so far" }],
    [8, { action: "record-hypothesis", text: "Rollback from the canary stage needs no manual step" }],
    [
      8,
      {
        action: "record-prediction",
        id: "H2",
        text: "deploy rollback at 5% restores the previous version in under 2 minutes",
        falsifiedBy: "deploy rollback --dry-run --stage canary --timing",
      },
    ],
  ],
  "flaky-ci": [
    [4, { action: "record-observation", text: "test/payments.test.ts fails 1 run in 12 on CI, never locally", skill: "flaky-test-triage" }],
    [4, { action: "record-hypothesis", text: "The test depends on the machine's time zone" }],
    [
      4,
      {
        action: "record-prediction",
        id: "H1",
        text: "It fails every time with TZ=Pacific/Kiritimati",
        falsifiedBy: "TZ=Pacific/Kiritimati npx vitest run test/payments.test.ts",
      },
    ],
    [3, { action: "record-verdict", id: "P1", verdict: "refuted", evidence: "12 of 12 runs pass with TZ=Pacific/Kiritimati" }],
    [
      3,
      {
        action: "record-prediction",
        id: "H1",
        text: "It fails at month boundaries in UTC",
        falsifiedBy: "faketime '2026-11-30 23:59:59' npx vitest run test/payments.test.ts",
      },
    ],
    [3, { action: "record-skip", id: "P2", reason: "H1 was refuted by P1; the time zone is not the cause" }],
    [2, { action: "record-hypothesis", text: "Two tests share the payments table without a reset" }],
    [
      2,
      {
        action: "record-prediction",
        id: "H2",
        text: "Running the file alone 50 times never fails",
        falsifiedBy: "npx vitest run test/payments.test.ts --repeat 50",
      },
    ],
    [1, { action: "record-verdict", id: "P3", verdict: "confirmed", evidence: "50 of 50 pass alone; fails 4 of 50 in the suite" }],
    [
      1,
      {
        action: "record-prediction",
        id: "H2",
        text: "Truncating the table in beforeEach makes the suite pass 50 times",
        falsifiedBy: "npx vitest run --repeat 50",
      },
    ],
  ],
};

async function seedLedgers(app: App, teamId: TeamId): Promise<void> {
  const now = Date.now();
  for (const [slug, steps] of Object.entries(PLANS)) {
    for (const [i, [daysAgo, input]] of steps.entries()) {
      const at = new Date(now - daysAgo * DAY + i * 7 * 60 * 1000);
      await appendRecord(app.db, teamId, slug as LedgerSlug, input, { keyId: null, userId: null, sessionId: `demo-${slug}`, at });
    }
  }
}

const RELEASE_CHECKLIST: NewLearned = {
  skillMd: composeSkillMd(
    { name: "release-checklist", description: "Walks a release candidate through a staged rollout. Use when preparing a release." },
    "# Release checklist\n\n1. Freeze main and tag the candidate `vX.Y.Z-rc.N`.\n2. Deploy to staging; run the smoke suite (`npm run smoke -- --env staging`).\n3. Roll out to 5% of traffic for 30 minutes; watch error rate and p99 latency.\n4. If both stay within 10% of the baseline, go to 50%, then 100%.\n5. Otherwise roll back with `deploy rollback` and record why in the release ticket.\n",
  ),
  status: "draft",
  reason: "after three releases where the 5% stage was skipped and a regression reached everyone",
};

const FLAKY_TEST_TRIAGE: NewLearned = {
  skillMd: composeSkillMd(
    {
      name: "flaky-test-triage",
      description: "Sorts a flaky test into timing, order or environment causes. Use when a test fails only sometimes.",
    },
    "# Flaky test triage\n\n1. Run the test 50 times alone: `npx vitest run <file> --repeat 50`.\n2. If it fails alone, suspect timing: look for real timers, sleeps and unawaited promises.\n3. If it fails only in the suite, suspect order: shared state, a database not reset between tests.\n4. If it fails only in CI, suspect environment: time zone, locale, CPU count, missing fonts.\n5. Fix the cause; quarantine only with a ticket and an owner.\n",
  ),
  status: "active",
  reason: "the same three causes explained every flaky test this quarter",
};

const TRIAGE_NOTES: NewLearned = {
  skillMd: composeSkillMd(
    {
      name: "triage-notes",
      description: "Drafts triage notes for a new bug report: impact, reproduction, suspected area. Use when a bug report arrives.",
    },
    "# Triage notes\n\n- Impact: who is affected and how badly.\n- Reproduction: the shortest steps, or 'not yet reproduced'.\n- Suspected area: the module and the last change to it.\n",
  ),
  status: "draft",
  reason: "an agent wrote this after triaging five bug reports in one session",
};

const SHORTER_TRIAGE = "# Flaky test triage\n\nRetry the test three times; if it passes once, mark it flaky and move on.\n";

const RELEASE_AMENDMENT = {
  body: "# Release checklist\n\n1. Freeze main and tag the candidate `vX.Y.Z-rc.N`.\n2. Run pending database migrations against staging, then production, before any traffic moves.\n3. Deploy to staging; run the smoke suite (`npm run smoke -- --env staging`).\n4. Roll out to 5% of traffic for 30 minutes; watch error rate and p99 latency.\n5. If both stay within 10% of the baseline, go to 50% for 30 minutes, then 100%. Never skip the 50% stage.\n6. For a breaking API change, announce it to API consumers a week before the release.\n7. Otherwise roll back with `deploy rollback` and record why in the release ticket.\n",
  rationale: "three recorded runs failed on migrations, a skipped 50% stage and an unannounced breaking change",
};

const SEED_AMENDMENT = {
  body: "# Flaky test triage\n\n1. Take the failing run's shuffle seed from the CI log and rerun with it: `npx vitest run --sequence.seed=<seed>`. A test that fails with one seed has an order problem you can now reproduce.\n2. Run the test 50 times alone: `npx vitest run <file> --repeat 50`.\n3. If it fails alone, suspect timing: look for real timers, sleeps and unawaited promises.\n4. If it fails only in the suite, suspect order: shared state, a database not reset between tests.\n5. If it fails only in CI, suspect environment: time zone, locale, CPU count, missing fonts.\n6. Fix the cause; quarantine only with a ticket and an owner.\n",
  rationale: "two nightly runs could not reproduce an order-dependent failure that the CI log's seed reproduces at once",
};

const TRIAGE_AMENDMENT = {
  body: "# Flaky test triage\n\n1. Run the test 50 times alone: `npx vitest run <file> --repeat 50`.\n2. Check CI logs for network timeouts first.\n3. If it fails alone, suspect timing: real timers, sleeps, unawaited promises.\n4. If it fails only in the suite, suspect order: shared state, a database not reset between tests.\n5. If it fails only in CI, suspect environment: time zone, locale, CPU count, missing fonts.\n6. Fix the cause; quarantine only with a ticket and an owner.\n",
  rationale: "the e2e checkout run missed a network timeout",
};

/** Views per day over 30 days, in sessions that load related skills together. Some skills are never loaded. */
const SESSION_PATTERNS: { skills: string[]; everyDays: number }[] = [
  { skills: ["scientific-method", "systematic-debugging", "test-driven-development"], everyDays: 1 },
  { skills: ["writing-plans", "experiment-driven-development"], everyDays: 2 },
  { skills: ["verification-before-completion", "finishing-a-branch"], everyDays: 3 },
  { skills: ["db-migration-review"], everyDays: 4 },
  { skills: ["release-checklist", "ci-green-gate"], everyDays: 7 },
  { skills: ["flaky-test-triage", "systematic-debugging"], everyDays: 5 },
  { skills: ["api-error-envelope"], everyDays: 12 },
];

/** How many minutes before its day's moment the `i`th view of the `p`th session pattern falls: sessions apart, loads in order. */
const minutesBefore = (p: number, i: number) => p * 37 + i * 3;
const MOST_MINUTES_BEFORE = Math.max(...SESSION_PATTERNS.flatMap((pattern, p) => pattern.skills.map((_, i) => minutesBefore(p, i))));

/**
 * When a demo view `day` days ago falls: `minutes` minutes before this moment of that day, on
 * that UTC day whatever the hour the demo is seeded at. Usage windows are whole UTC days
 * (lib/usage/stats.ts), so a view set 40 minutes before a moment 6 days ago, seeded at 00:30 UTC,
 * fell on the 7th day back and out of the week: the minutes are squeezed into the part of today
 * already past.
 */
export function demoViewTime(now: number, day: number, minutes: number): Date {
  const sinceMidnight = now % DAY;
  const squeeze = Math.min(1, sinceMidnight / ((MOST_MINUTES_BEFORE + 1) * 60 * 1000));
  return new Date(now - day * DAY - Math.floor(minutes * 60 * 1000 * squeeze));
}

/** Views of the last 30 days, each of the version served that day; none of a skill before it existed. */
async function seedViews(app: App, teamId: TeamId): Promise<void> {
  const now = Date.now();
  const served = await versionsServed(app, teamId);
  const views: SkillView[] = [];
  for (let day = 29; day >= 0; day--) {
    for (const [p, pattern] of SESSION_PATTERNS.entries()) {
      if (day % pattern.everyDays !== 0) continue;
      const sessionId = `demo-${day}-${p}`;
      pattern.skills.forEach((skillName, i) => {
        const viewedAt = demoViewTime(now, day, minutesBefore(p, i));
        const version = served(skillName, viewedAt);
        if (version) views.push({ teamId, skillName, ...version, keyId: null, sessionId, viewedAt });
      });
    }
  }
  for (const slice of inSlices(views)) await writeViews(app.db, slice);
}

const ROUTING = {
  name: "core-routing",
  cases: [
    { id: "D1", prompt: "Find the root cause of the failing payment test before fixing it", expected: ["systematic-debugging"] },
    { id: "D2", prompt: "Review this database migration for locks and data loss", expected: ["db-migration-review"] },
    { id: "D3", prompt: "Write the changelog entries for this release", expected: ["changelog-writer"] },
    { id: "D4", prompt: "Walk the release candidate through a staged rollout", expected: ["release-checklist"] },
    { id: "P1", prompt: "The checkout page started throwing errors after lunch and nobody knows why", expected: ["systematic-debugging"] },
    { id: "P2", prompt: "We ship 3.0 to customers tomorrow; what has to happen first?", expected: ["release-checklist"] },
    { id: "P3", prompt: "Tell our users what changed in this version", expected: ["changelog-writer"] },
    { id: "G1", prompt: "What is the capital of France?", expectNone: true },
    { id: "G2", prompt: "Translate 'good morning' into Spanish", expectNone: true },
  ],
};
