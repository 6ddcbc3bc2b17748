import { inSlices } from "@/db/batches";
import { updateTeamSettings } from "../listing/settings";
import type { App } from "../contracts/app";
import type { TelemetryEvent } from "../telemetry/events";
import { ingestTelemetry } from "../telemetry/ingest";
import type { TeamId } from "../teams/teams";
import type { Trigger } from "../usage/activations";

/**
 * Four weeks of the demo team's Claude Code telemetry (docs/telemetry.md#the-receiver), as the receiver maps it, so the
 * overview, the skill pages and the activation page show production: five people and their
 * prompts, skills the model chooses, api-error-envelope that people only ever type (its "when"
 * clause is cut from the listing), changelog-writer typed by hand until its description was
 * rewritten 3.2 days ago and chosen by the model since, custom skills whose names Claude Code hid,
 * and a plugin's skill the registry does not hold. Each prompt then does its work — tool calls,
 * some failing, a model call with its cost and tokens, now and then a tool a person rejects — so
 * "Is it helping?" has answers: db-migration-review's psql calls keep failing (loaded, then
 * failing), systematic-debugging costs several times a plain prompt (costly), and changelog-writer's
 * rewritten v2 fails git calls v1 never did. Deterministic: the same counts on every seed, each
 * event a whole number of days, minutes and seconds before the seed ran.
 */

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;
/** The oldest day of telemetry: inside every 30-day window, whatever the time of day. */
const FIRST_DAY = 27;

export const DEMO_PEOPLE = ["demo@skillgate.local", "sam@example.com", "priya@example.com", "lee@example.com", "ana@example.com"];

/** What a prompt did once its skills were loaded (or, with none, on its own). */
interface Work {
  /** The tools it called, in order. */
  tools: string[];
  /** Which of those calls failed in the n-th prompt doing this work (from 0), by their place in `tools`. */
  fails: (n: number) => number[];
  /** What a failing call said (kept: the demo team stores prompt texts). */
  error: string;
  /** Of its one model call, named after the skill loaded last. */
  costUsd: number;
  tokens: number;
  /** Seconds from one event of the prompt to the next. */
  step: number;
  /** The tool a person rejected in the n-th prompt, if any. */
  rejects?: (n: number) => string | null;
}

/** Prompts with no skill: a few quick calls, an edit that misses now and then. */
const PLAIN_WORK: Work = {
  tools: ["Read", "Grep", "Edit"],
  fails: (n) => (n % 12 === 11 ? [2] : []),
  error: "String to replace not found in file.",
  costUsd: 0.06,
  tokens: 18_400,
  step: 25,
};

/** A skill's prompt as most go: a little more work than a plain one, a test run that fails one time in eight. */
const SKILL_WORK: Work = {
  tools: ["Read", "Grep", "Bash", "Edit"],
  fails: (n) => (n % 8 === 7 ? [2] : []),
  error: "Exit code 1",
  costUsd: 0.08,
  tokens: 26_000,
  step: 30,
};

/** Debugging reads and reruns a lot: about as reliable as a plain prompt, several times the cost (costly). */
const DEBUGGING_WORK: Work = {
  tools: ["Read", "Grep", "Bash", "Read", "Bash", "Edit", "Bash"],
  fails: (n) => (n % 4 === 3 ? [2] : []),
  error: "Exit code 1\nFAIL test/payments/webhook.test.ts › retries a failed delivery",
  costUsd: 0.42,
  tokens: 142_000,
  step: 55,
  rejects: (n) => (n % 10 === 4 ? "Edit" : null),
};

/** The review tells the agent to try the migration on a database no laptop has: psql fails (loaded, then failing). */
const MIGRATION_WORK: Work = {
  tools: ["Read", "Bash", "Read", "Bash", "Grep"],
  fails: (n) => (n % 2 === 0 ? [1, 3] : [1]),
  error: 'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused',
  costUsd: 0.09,
  tokens: 31_000,
  step: 40,
  rejects: (n) => (n % 4 === 1 ? "Bash" : null),
};

/** changelog-writer v1, typed by hand: reads the merged PRs; `git describe` fails once in a while. */
const CHANGELOG_V1_WORK: Work = {
  tools: ["Bash", "Read", "Read", "Edit"],
  fails: (n) => (n % 6 === 5 ? [0] : []),
  error: "fatal: No names found, cannot describe anything.",
  costUsd: 0.05,
  tokens: 15_000,
  step: 20,
};

/** changelog-writer v2, chosen by the model: it asks git for a tag range that does not exist yet, twice a prompt. */
const CHANGELOG_V2_WORK: Work = {
  tools: ["Bash", "Bash", "Read", "Read", "Edit", "Bash"],
  fails: () => [0, 1],
  error: "fatal: ambiguous argument 'v3.0.0..HEAD': unknown revision or path not in the working tree.",
  costUsd: 0.07,
  tokens: 21_500,
  step: 25,
};

/** A prompt and the skills it activated, with who chose each, and what it then did. */
interface Ask {
  prompt: string;
  skills: [name: string, trigger: Trigger][];
  work?: Work;
}

/** Asks of skills, each on the days its rule picks (`k` days ago). */
const SKILL_ASKS: { on: (k: number) => boolean; ask: Ask }[] = [
  {
    on: () => true,
    ask: {
      prompt: "Why does the payments webhook test fail only on CI?",
      skills: [["systematic-debugging", "proactive"]],
      work: DEBUGGING_WORK,
    },
  },
  {
    on: (k) => k % 2 === 0,
    ask: {
      prompt: "The checkout page throws a 500 since the last deploy; find out why",
      skills: [["systematic-debugging", "proactive"]],
      work: DEBUGGING_WORK,
    },
  },
  {
    on: () => true,
    ask: {
      prompt: "Add a failing test for the rounding bug in invoice totals, then fix it",
      skills: [["test-driven-development", "proactive"]],
    },
  },
  {
    on: (k) => k % 2 === 1,
    ask: { prompt: "Plan moving the billing cron jobs onto the queue", skills: [["writing-plans", "proactive"]] },
  },
  {
    on: (k) => k % 6 === 2,
    ask: { prompt: "Is the cache or the query slower on /search? Work it out", skills: [["scientific-method", "proactive"]] },
  },
  {
    on: (k) => k % 3 === 0,
    ask: {
      prompt: "Check this migration that adds a NOT NULL column to orders",
      skills: [["db-migration-review", "proactive"]],
      work: MIGRATION_WORK,
    },
  },
  {
    on: (k) => k % 7 === 3,
    ask: {
      prompt: "/db-migration-review migrations/0042_orders_status.sql",
      skills: [["db-migration-review", "slash"]],
      work: MIGRATION_WORK,
    },
  },
  {
    // Released every five days since the checklist was promoted; it calls the CI gate itself.
    on: (k) => k <= 25 && k % 5 === 0,
    ask: {
      prompt: "We ship the next version to customers tomorrow; walk me through it",
      skills: [
        ["release-checklist", "proactive"],
        ["ci-green-gate", "nested"],
      ],
    },
  },
  {
    on: (k) => k <= 21 && k % 4 === 1,
    ask: {
      prompt: "test/inventory.test.ts fails one run in ten in the nightly job",
      skills: [["flaky-test-triage", "proactive"]],
    },
  },
  {
    // Its "when" clause is cut from the listing: the model never picks it, people type it.
    on: (k) => k % 3 === 1,
    ask: { prompt: "/api-error-envelope POST /v1/refunds", skills: [["api-error-envelope", "slash"]] },
  },
  // changelog-writer before its description was rewritten (3.2 days ago): typed, chosen once.
  {
    on: (k) => k >= 5 && k % 2 === 0,
    ask: {
      prompt: "/changelog-writer entries for the 2.x releases",
      skills: [["changelog-writer", "slash"]],
      work: CHANGELOG_V1_WORK,
    },
  },
  {
    on: (k) => k === 14,
    ask: { prompt: "Write the changelog entries for 2.16", skills: [["changelog-writer", "proactive"]], work: CHANGELOG_V1_WORK },
  },
  // ... and after: the model chooses it from what people ask.
  {
    on: (k) => k <= 2,
    ask: {
      prompt: "Tell our users what changed in this version",
      skills: [["changelog-writer", "proactive"]],
      work: CHANGELOG_V2_WORK,
    },
  },
  {
    on: (k) => k <= 2,
    ask: { prompt: "Write the release notes for 3.0.1", skills: [["changelog-writer", "proactive"]], work: CHANGELOG_V2_WORK },
  },
  {
    // A custom skill, named only with OTEL_LOG_TOOL_DETAILS=1.
    on: (k) => [20, 13, 8, 2].includes(k),
    ask: { prompt: "Format this SQL the way our team does", skills: [["custom_skill", "proactive"]] },
  },
  {
    // A plugin's skill: used, but not governed by the registry.
    on: (k) => [18, 11, 9, 4, 1].includes(k),
    ask: { prompt: "Make the settings page look less like a form dump", skills: [["frontend-design", "proactive"]] },
  },
];

/** Prompts that activate no skill: most of what people ask. */
const PLAIN_PROMPTS = [
  "Rename getUser to findUser across the api package",
  "Explain what this regular expression matches",
  "Move the eslint config to the flat format",
  "Add pagination to GET /v1/invoices",
  "Turn this callback into async/await",
  "Summarise the diff of this branch",
  "Why does TypeScript say this is never?",
  "Write a docstring for parseAmount",
  "Split this 600-line component into smaller ones",
  "What does the retry middleware do on a 429?",
  "Add a loading state to the orders table",
  "Bump the Node version in the Dockerfile to 20",
];

/** Prompts each person asks on a working day, beyond the ones that use skills; one on a weekend day. */
const PLAIN_PER_PERSON = 5;

const SOURCE: Record<string, string> = { custom_skill: "userSettings", "frontend-design": "plugin" };

/** The month's events, oldest first: each prompt, the skills it activated, then its work, in its person's session of the day. */
export function demoTelemetry(now: number): TelemetryEvent[] {
  const events: TelemetryEvent[] = [];
  // How many prompts did each kind of work so far: which of them fail is counted, not drawn.
  const done = new Map<Work, number>();
  for (let k = FIRST_DAY; k >= 0; k--) {
    const asks = asksOfDay(k);
    const sequences = new Map<string, number>();
    asks.forEach(({ ask, person }, i) => {
      const session = `demo-cc-${k}-${person}`;
      const next = () => {
        const sequence = (sequences.get(session) ?? 0) + 1;
        sequences.set(session, sequence);
        return sequence;
      };
      // Spread over the 19 hours before this time of day; never in the future, never past the day before.
      const at = new Date(now - k * DAY - (30 + ((i * 397) % 1140)) * MINUTE);
      const promptSeq = next();
      const base = { sessionId: session, promptId: `${session}:${promptSeq}`, person: DEMO_PEOPLE[person] ?? null };
      events.push({ kind: "prompt", key: `seq:${session}:${promptSeq}`, at, ...base, sequence: promptSeq, text: ask.prompt });
      for (const [skillName, trigger] of ask.skills) {
        const seq = next();
        events.push({
          kind: "activation",
          key: `seq:${session}:${seq}`,
          at: new Date(at.getTime() + seq * 1000),
          ...base,
          sequence: seq,
          skillName,
          trigger,
          skillSource: SOURCE[skillName] ?? "projectSettings",
        });
      }
      const work = ask.work ?? (ask.skills.length === 0 ? PLAIN_WORK : SKILL_WORK);
      const n = done.get(work) ?? 0;
      done.set(work, n + 1);
      const loaded = ask.skills.at(-1)?.[0] ?? null;
      const start = at.getTime() + (sequences.get(session) ?? 0) * 1000;
      const step = (seq: number, j: number) => ({
        key: `seq:${session}:${seq}`,
        at: new Date(start + j * work.step * 1000),
        ...base,
        sequence: seq,
      });
      events.push(...workEvents(work, n, loaded, () => next(), step));
    });
  }
  return events;
}

/** One prompt's work as Claude Code reports it: each tool's result, a person's rejection, then the model call naming the skill loaded. */
function workEvents(
  work: Work,
  n: number,
  loaded: string | null,
  next: () => number,
  step: (sequence: number, j: number) => Omit<TelemetryEvent, "kind">,
): TelemetryEvent[] {
  const failing = work.fails(n);
  const events: TelemetryEvent[] = work.tools.map((toolName, j) => {
    const failed = failing.includes(j);
    return {
      kind: "tool_result",
      ...step(next(), j + 1),
      toolName,
      success: !failed,
      durationMs: 400 + j * 150,
      error: failed ? work.error : null,
    };
  });
  const rejected = work.rejects?.(n) ?? null;
  if (rejected) events.push({ kind: "tool_rejection", ...step(next(), work.tools.length + 1), toolName: rejected });
  events.push({
    kind: "api_request",
    ...step(next(), work.tools.length + 2),
    skillName: loaded,
    costUsd: work.costUsd,
    tokens: work.tokens,
    durationMs: 4_000,
  });
  return events;
}

/** The day's asks, each with its person: the skill asks of the day, then everyone's plain prompts. */
function asksOfDay(k: number): { ask: Ask; person: number }[] {
  const people = DEMO_PEOPLE.length;
  const skillAsks = SKILL_ASKS.filter((rule) => rule.on(k)).map((rule, i) => ({ ask: rule.ask, person: (k + i) % people }));
  // Two days in seven are quiet, whatever the calendar says, so the counts never depend on the date.
  const perPerson = k % 7 === 5 || k % 7 === 6 ? 1 : PLAIN_PER_PERSON;
  const plain = [...Array(people * perPerson).keys()].map((n) => ({
    ask: { prompt: PLAIN_PROMPTS[(k * 7 + n) % PLAIN_PROMPTS.length] ?? "", skills: [] },
    person: n % people,
  }));
  return [...skillAsks, ...plain];
}

/**
 * The lead keeps prompt texts (to build prompt sets from production), then the month arrives as
 * the receiver would have stored it.
 */
export async function seedTelemetry(app: App, teamId: TeamId): Promise<void> {
  await updateTeamSettings(app.db, app.catalogs, teamId, { storePrompts: true });
  const now = Date.now();
  for (const events of inSlices(demoTelemetry(now), 500)) {
    await ingestTelemetry(
      app.db,
      teamId,
      { events, ignored: 0, refused: { count: 0, reasons: [] } },
      app.catalogs.staticNames,
      new Date(now),
    );
  }
}
