import { NO_PRODUCTION_ENTRY } from "../helpers/telemetry";
import { eq } from "drizzle-orm";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { evalResults, evalRuns, skillViews } from "@/db/schema";
import { LEXICAL_BATCH, recoverRuns, startRun } from "@/lib/activation/runs";
import { ensureTeam } from "@/lib/teams/teams";
import { writeViews } from "@/lib/usage/rollups";
import { anotherInstance, errorOf, startTestApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { mockAnswer } from "../helpers/judge";
import { waitFor, waitUntil } from "../helpers/wait";

const PROMPTS = {
  name: "core",
  cases: [
    { id: "D1", prompt: "Find the root cause of this failing test and bug before fixing symptoms", expected: ["systematic-debugging"] },
    { id: "D2", prompt: "Write a failing test first before the code, red green refactor", expected: ["test-driven-development"] },
    { id: "P1", prompt: "Something broke after the deploy and I do not know why", expected: ["systematic-debugging"] },
    { id: "G1", prompt: "zxqv blorp quux frobnicate", expectNone: true },
    { id: "G2", prompt: "What is the capital of France?", expectNone: true },
  ],
};

/**
 * A model that loads systematic-debugging for prompts about breakage, test-driven-development for
 * tests, nothing otherwise. `beforePrompt` runs before it answers a case's prompt (not the turn
 * after a tool call): a test holds the model there to see a run in flight.
 */
function activationModel(beforePrompt: () => Promise<void> = async () => {}) {
  return new MockLanguageModelV3({
    modelId: "activation-mock",
    doGenerate: async (options) => {
      const last = options.prompt[options.prompt.length - 1]!;
      if (last.role === "tool") return mockAnswer("Loaded; following it.");
      await beforePrompt();
      const text = JSON.stringify(options.prompt.filter((message) => message.role === "user"));
      const name = /broke|root cause/.test(text) ? "systematic-debugging" : /test first/.test(text) ? "test-driven-development" : null;
      if (!name) return mockAnswer("No skill applies.");
      return {
        ...mockAnswer(""),
        content: [{ type: "tool-call" as const, toolCallId: `call-${name}`, toolName: "skill_view", input: JSON.stringify({ name }) }],
        finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
      };
    },
  });
}

describe.each(testDbKinds)("activation on %s", (kind) => {
  const model = activationModel();
  const t = useTestApp(kind, { model: { model, id: "mock:activation" } });

  const runOf = async (body: unknown) => {
    const res = await t.call("POST", "/api/v1/evals/runs", { json: body });
    expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(201);
    return res.json();
  };
  const finished = (id: number) =>
    waitUntil(
      async () => (await t.call("GET", `/api/v1/evals/runs/${id}`)).json(),
      (run) => run.status !== "running",
      { what: `run #${id} to end` },
    );
  const createCorePromptSet = async () => {
    expect((await t.call("POST", "/api/v1/evals/prompt-sets", { json: PROMPTS })).status).toBe(201);
  };
  /** What an external harness reports for PROMPTS: two trials of D1, one of every other case. */
  const IMPORTED_RESULTS = [
    { id: "D1", loaded: ["systematic-debugging"] },
    { id: "D1", loaded: [] },
    { id: "D2", loaded: ["test-driven-development", "writing-plans"] },
    { id: "P1", loaded: [] },
    { id: "G1", loaded: ["writing-plans"] },
    { id: "G2", loaded: [] },
  ];
  const runImport = () => runOf({ promptSet: PROMPTS, activator: "import", results: IMPORTED_RESULTS });

  it("keeps prompt sets: create, read, replace, list, delete, in the JSON form", async () => {
    const created = await t.call("POST", "/api/v1/evals/prompt-sets", { json: PROMPTS });
    expect(created.status).toBe(201);
    const read = await (await t.call("GET", "/api/v1/evals/prompt-sets/core")).json();
    expect(read.cases[3]).toEqual({ id: "G1", prompt: "zxqv blorp quux frobnicate", expected: [], expectNone: true });
    const replaced = await t.call("PUT", "/api/v1/evals/prompt-sets/scratch", {
      json: { cases: [{ id: "D1", prompt: "x", expected: ["writing-plans"] }] },
    });
    expect(replaced.status).toBe(200);
    expect((await (await t.call("GET", "/api/v1/evals/prompt-sets")).json()).promptSets.map((s: { name: string }) => s.name)).toEqual([
      "core",
      "scratch",
    ]);
    expect(await (await t.call("DELETE", "/api/v1/evals/prompt-sets/scratch")).json()).toEqual({ name: "scratch", deleted: true });
    expect(await errorOf(await t.call("GET", "/api/v1/evals/prompt-sets/scratch"))).toEqual({
      code: "PromptSetNotFound",
      message: "Error [PromptSetNotFound]: No prompt set named 'scratch' in this team.",
    });
  });

  it("refuses malformed prompt sets with the field and the rule", async () => {
    const bad: [unknown, string][] = [
      [
        { name: "x", cases: [{ id: "X1", prompt: "p", expected: ["a"] }] },
        'field "cases.0.id": must start with D (keywords), P (paraphrase) or G (should trigger nothing), e.g. D1',
      ],
      [
        { name: "x", cases: [{ id: "G1", prompt: "p", expected: ["a"], expectNone: true }] },
        'field "cases.0.expected": expects nothing, so expected must be empty',
      ],
      [
        { name: "x", cases: [{ id: "D1", prompt: "p" }] },
        'field "cases.0.expected": names no expected skill: give expected, or expectNone: true',
      ],
      [
        {
          name: "x",
          cases: [
            { id: "D1", prompt: "p", expected: ["a"] },
            { id: "D1", prompt: "q", expected: ["a"] },
          ],
        },
        'case id "D1" appears twice; ids must be unique',
      ],
      [
        { name: "Bad Name", cases: [{ id: "D1", prompt: "p", expected: ["a"] }] },
        'field "name": must be 1–80 lowercase letters, digits and hyphens',
      ],
      [{ name: "x", cases: [] }, 'field "cases": needs at least one case'],
    ];
    for (const [body, message] of bad) {
      const res = await t.call("POST", "/api/v1/evals/prompt-sets", { json: body });
      expect(res.status, message).toBe(400);
      expect((await errorOf(res)).message).toBe(message);
    }
  });

  it("runs the lexical activator on the listing: keywords load the skill, gibberish loads nothing", async () => {
    await createCorePromptSet();
    const run = await runOf({ promptSet: { name: "core" }, activator: "lexical", trials: 2 });
    expect(run.status).toBe("finished");
    const loaded = Object.fromEntries(
      run.results.filter((r: { trial: number }) => r.trial === 1).map((r: { id: string; loaded: string[] }) => [r.id, r.loaded]),
    );
    expect(loaded.D1).toContain("systematic-debugging");
    expect(loaded.D2).toContain("test-driven-development");
    expect(loaded.G1).toEqual([]);
    expect(run.results).toHaveLength(10);
    expect(run.listingText).toBe(await (await t.call("GET", "/api/v1/listing")).text());
    expect(run.metrics.byClass.D).toBe(1);
    expect(run.metrics.falseTriggerRate).toBe(0);
  });

  it("starts a lexical run running and writes its results in batches in the background, then finishes it", async () => {
    const cases = Array.from({ length: 2 * LEXICAL_BATCH + 3 }, (_, i) => ({
      id: `D${i}`,
      prompt: `debug the root cause of failure ${i}`,
      expected: ["systematic-debugging"],
    }));
    const team = await ensureTeam(t.app.db, t.alpha.team.slug);
    const started = await startRun(t.app, team, { promptSet: { name: "many", cases }, activator: "lexical" });
    // Answered before the work: nothing the background does can settle in the turn startRun returns in.
    let settled = false;
    const settle = () => (settled = true);
    void started.done.then(settle, settle);
    await Promise.resolve();
    expect(settled).toBe(false);
    // On PostgreSQL the background writes on a connection of its own, and on a busy machine a batch
    // or two may be in before this read (CI once saw 25): running, with whole batches done.
    const [row] = await t.app.db.select().from(evalRuns).where(eq(evalRuns.id, started.runId));
    expect([row?.status, row?.caseRuns]).toEqual(["running", cases.length]);
    expect([0, LEXICAL_BATCH, 2 * LEXICAL_BATCH]).toContain(row?.done);
    // The progress the run page reads moves a batch at a time.
    const seen = new Set<number>();
    const watching = (async () => {
      // Until the run has settled, not until it reaches the end: a run that fails must fail the test, not hang it.
      for (let done = 0; done < cases.length && !settled;) {
        const [now] = await t.app.db.select({ done: evalRuns.done }).from(evalRuns).where(eq(evalRuns.id, started.runId));
        done = now?.done ?? 0;
        seen.add(done);
        // PGlite answers on this thread: a loop of awaits alone would never let the run's batches in.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await started.done;
    await watching;
    expect([...seen].every((done) => done % LEXICAL_BATCH === 0 || done === cases.length)).toBe(true);
    const run = await (await t.call("GET", `/api/v1/evals/runs/${started.runId}`)).json();
    expect([run.status, run.done, run.results.length, run.metrics.activationRate]).toEqual(["finished", cases.length, cases.length, 1]);
  });

  it("runs a model with the listing as system prompt and skill_view as its one tool, in the background", async () => {
    const viewsBefore = await t.app.db.$count(skillViews);
    const started = await runOf({ promptSet: PROMPTS, activator: "model" });
    expect(["running", "finished"]).toContain(started.status);
    const run = await finished(started.id);
    expect(run.status).toBe("finished");
    expect(run.modelId).toBe("mock:activation");
    expect(run.results.map((r: { id: string; loaded: string[] }) => [r.id, r.loaded])).toEqual([
      ["D1", ["systematic-debugging"]],
      ["D2", ["test-driven-development"]],
      ["G1", []],
      ["G2", []],
      ["P1", ["systematic-debugging"]],
    ]);
    expect(run.metrics).toEqual({
      activationRate: 1,
      byClass: { D: 1, P: 1, G: 1 },
      falseTriggerRate: 0,
      perSkill: {
        "systematic-debugging": { expected: 2, loaded: 2, recall: 1 },
        "test-driven-development": { expected: 1, loaded: 1, recall: 1 },
      },
      wrongSelections: 0,
    });
    const call = model.doGenerateCalls.find((c) => JSON.stringify(c.prompt).includes("root cause"))!;
    expect(call.prompt[0]).toEqual({ role: "system", content: run.listingText });
    expect(call.tools?.map((tool) => tool.name)).toEqual(["skill_view"]);
    await t.app.views.flush();
    expect(await t.app.db.$count(skillViews)).toBe(viewsBefore);
  });

  it("imports an external harness's results, trials in order, and checks every case is there", async () => {
    const run = await runImport();
    expect(run.trials).toBe(2);
    expect(
      run.results.filter((r: { id: string }) => r.id === "D1").map((r: { trial: number; passed: boolean }) => [r.trial, r.passed]),
    ).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(run.metrics).toEqual({
      activationRate: 2 / 4,
      byClass: { D: 2 / 3, P: 0, G: 1 / 2 },
      falseTriggerRate: 1 / 2,
      perSkill: {
        "systematic-debugging": { expected: 3, loaded: 1, recall: 1 / 3 },
        "test-driven-development": { expected: 1, loaded: 1, recall: 1 },
      },
      wrongSelections: 2,
    });
  });

  it("refuses bad runs with a 4xx", async () => {
    await createCorePromptSet();
    const bad: [unknown, number, string][] = [
      [{ promptSet: { name: "core" }, activator: "psychic" }, 400, 'field "activator": activator must be "model", "lexical" or "import"'],
      [{ promptSet: { name: "core" }, activator: "lexical", trials: 0 }, 400, 'field "trials": trials must be at least 1'],
      [
        { promptSet: PROMPTS, activator: "import", results: [{ id: "Z9", loaded: [] }] },
        400,
        'results.0: "Z9" is not a case of this prompt set',
      ],
      [
        { promptSet: PROMPTS, activator: "import", results: [{ id: "D1", loaded: [] }] },
        400,
        'no result for case "D2"; send one per case (and trial)',
      ],
      [{ promptSet: PROMPTS, activator: "import" }, 400, 'an "import" run needs results: [{"id", "loaded"}]'],
      [{ promptSet: { name: "nope" }, activator: "lexical" }, 404, "Error [PromptSetNotFound]: No prompt set named 'nope' in this team."],
    ];
    for (const [body, status, message] of bad) {
      const res = await t.call("POST", "/api/v1/evals/runs", { json: body });
      expect(res.status, message).toBe(status);
      expect((await errorOf(res)).message).toBe(message);
    }
  });

  it("compares two runs case by case", async () => {
    // A model run, then an import run: the newest is listed first.
    expect((await finished((await runOf({ promptSet: PROMPTS, activator: "model" })).id)).status).toBe("finished");
    await runImport();
    const runs = (await (await t.call("GET", "/api/v1/evals/runs")).json()).runs;
    const [importRun, modelRun] = runs;
    const comparison = await (await t.call("GET", `/api/v1/evals/compare?a=${importRun.id}&b=${modelRun.id}`)).json();
    const byId = Object.fromEntries(comparison.cases.map((c: { id: string }) => [c.id, c]));
    expect(byId.P1).toMatchObject({
      class: "P",
      change: "better",
      a: { passed: 0, runs: 1, loaded: [] },
      b: { passed: 1, runs: 1, loaded: ["systematic-debugging"] },
    });
    expect(byId.G1).toMatchObject({ change: "better", a: { passed: 0, loaded: ["writing-plans"] }, b: { passed: 1, loaded: [] } });
    expect(byId.D1).toMatchObject({ change: "better", a: { passed: 1, runs: 2 }, b: { passed: 1, runs: 1 } });
    expect(byId.G2.change).toBe("same");
  });

  it("counts real usage from views: per skill, never loaded, and co-loaded pairs", async () => {
    const now = Date.now();
    const view = (skillName: string, sessionId: string, daysAgo: number) => ({
      teamId: t.alpha.team.id,
      skillName,
      source: "builtin",
      version: 1,
      keyId: null,
      sessionId,
      viewedAt: new Date(now - daysAgo * 86_400_000),
    });
    await writeViews(t.app.db, [
      view("systematic-debugging", "s1", 1),
      view("test-driven-development", "s1", 1),
      view("systematic-debugging", "s2", 3),
      view("test-driven-development", "s2", 3),
      view("systematic-debugging", "s3", 10),
      view("test-driven-development", "s3", 10),
      view("systematic-debugging", "s3", 10),
      view("writing-plans", "s4", 40),
    ]);
    const usage = await (await t.call("GET", "/api/v1/usage")).json();
    expect(usage.skills).toEqual([
      {
        name: "systematic-debugging",
        views7d: 2,
        views30d: 4,
        lastViewedAt: expect.any(String),
        sessions: 3,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
      {
        name: "test-driven-development",
        views7d: 2,
        views30d: 3,
        lastViewedAt: expect.any(String),
        sessions: 3,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
      {
        name: "writing-plans",
        views7d: 0,
        views30d: 0,
        lastViewedAt: expect.any(String),
        sessions: 0,
        activations: { proactive: 0, slash: 0, nested: 0 },
        people: 0,
        typedOnly: false,
        proactivePer100Prompts: null,
        ...NO_PRODUCTION_ENTRY,
      },
    ]);
    expect(usage.neverLoaded).toEqual([
      "experiment-driven-development",
      "finishing-a-branch",
      "scientific-method",
      "verification-before-completion",
    ]);
    expect(usage.coLoaded).toEqual([{ a: "systematic-debugging", b: "test-driven-development", sessions: 3, share: 1 }]);
    const beta = await (await t.call("GET", "/api/v1/usage", { key: t.beta.key })).json();
    expect(beta.skills).toEqual([]);
    expect(beta.coLoaded).toEqual([]);
  });

  it("records loads reported by a harness, one or a batch, and refuses bad ones", async () => {
    const one = await t.call("POST", "/api/v1/usage/views", { json: { skill: "writing-plans", sessionId: "harness-1" } });
    expect([one.status, await one.json()]).toEqual([201, { recorded: 1 }]);
    const batch = await t.call("POST", "/api/v1/usage/views", {
      json: {
        views: [
          { skill: "writing-plans", sessionId: "harness-2", version: 1 },
          { skill: "scientific-method", sessionId: "harness-2" },
        ],
      },
    });
    expect(await batch.json()).toEqual({ recorded: 2 });
    await t.app.views.flush();
    const rows = await t.app.db.select().from(skillViews).where(eq(skillViews.source, "harness"));
    expect(rows.map((r) => [r.skillName, r.sessionId, r.version]).sort()).toEqual([
      ["scientific-method", "harness-2", 1],
      ["writing-plans", "harness-1", 1],
      ["writing-plans", "harness-2", 1],
    ]);
    const bad: [unknown, number, string][] = [
      [{ skill: "writing-plans" }, 400, 'field "sessionId": Invalid input: expected string, received undefined'],
      [{ skill: "ghost", sessionId: "s" }, 404, "Error [SkillNotFound]: No skill named 'ghost'. Use skill_list to see available skills."],
      [
        {
          views: [
            { skill: "writing-plans", sessionId: "s" },
            { skill: "ghost", sessionId: "s" },
          ],
        },
        404,
        "views.1: no skill named 'ghost'",
      ],
      [{ skill: "writing-plans", sessionId: "s", version: 4 }, 400, "writing-plans has no v4; it is at v1"],
    ];
    for (const [body, status, message] of bad) {
      const res = await t.call("POST", "/api/v1/usage/views", { json: body });
      expect(res.status, message).toBe(status);
      expect((await errorOf(res)).message).toBe(message);
    }
    expect(t.app.views.pending).toBe(0);
  });

  it("keeps runs and prompt sets inside their team", async () => {
    await createCorePromptSet();
    await runImport();
    const runs = (await (await t.call("GET", "/api/v1/evals/runs")).json()).runs;
    const beta = { key: t.beta.key };
    expect(await errorOf(await t.call("GET", `/api/v1/evals/runs/${runs[0].id}`, beta))).toEqual({
      code: "RunNotFound",
      message: `Error [RunNotFound]: No activation run #${runs[0].id} in this team.`,
    });
    expect((await t.call("POST", `/api/v1/evals/runs/${runs[0].id}/cancel`, beta)).status).toBe(404);
    expect((await t.call("GET", "/api/v1/evals/prompt-sets/core", beta)).status).toBe(404);
    expect((await (await t.call("GET", "/api/v1/evals/runs", beta)).json()).runs).toEqual([]);
  });
});

describe("cancelling a model run", () => {
  it("stops it, keeps what it measured, and refuses to cancel twice", async () => {
    // The model answers the first case-run's prompt, then holds every later one until the test lets
    // it go: the run is cancelled with one result written and the second case-run in flight,
    // however fast the machine is.
    let prompts = 0;
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const model = activationModel(async () => {
      if (++prompts > 1) await held;
    });
    const t = await startTestApp("pglite", { model: { model, id: "mock:held" }, judgeConcurrency: 1 });
    try {
      const started = await (
        await t.call("POST", "/api/v1/evals/runs", { json: { promptSet: PROMPTS, activator: "model", trials: 4 } })
      ).json();
      expect(started.status).toBe("running");
      const report = async () => (await t.call("GET", `/api/v1/evals/runs/${started.id}`)).json();
      await waitUntil(report, (run) => run.results.length >= 1, { what: "the run's first result" });
      await waitFor(() => prompts === 2, { what: "the run's second case-run to ask the model" });
      expect(await (await t.call("POST", `/api/v1/evals/runs/${started.id}/cancel`)).json()).toEqual({
        id: started.id,
        status: "cancelled",
      });
      // The case-run in flight when the run was cancelled is still written; nothing after it is asked.
      letGo();
      const run = await waitUntil(report, (r) => r.results.length === 2, { what: "the result of the case-run in flight at the cancel" });
      expect(prompts).toBe(2);
      expect(run.status).toBe("cancelled");
      expect(run.metrics).toBeUndefined();
      expect(run.results.length).toBeGreaterThan(0);
      expect(run.results.length).toBeLessThan(20);
      expect(await errorOf(await t.call("POST", `/api/v1/evals/runs/${started.id}/cancel`))).toEqual({
        code: "RunNotRunning",
        message: `Error [RunNotRunning]: run #${started.id} is cancelled; only a running run can be cancelled`,
      });
      const none = await startTestApp("pglite");
      try {
        expect(await errorOf(await none.call("POST", "/api/v1/evals/runs", { json: { promptSet: PROMPTS, activator: "model" } }))).toEqual({
          code: "NoModel",
          message: "Error [NoModel]: set SKILLGATE_MODEL to evaluate amendments",
        });
      } finally {
        await none.close();
      }
    } finally {
      letGo();
      await t.close();
    }
  });
});

/**
 * Durable runs (issue 14): an instance that dies mid-run stops renewing its lease; another takes the
 * run over and finishes it from the case-runs already written, asking the model only for the rest.
 */
describe.each(testDbKinds)("a model run whose instance died, on %s", (kind) => {
  // Never settles: the first instance stays stopped, as a killed process does.
  const dead = new Promise<void>(() => {});
  let answered = 0;
  // The first instance answers two prompts, then hangs on the third as a stopped process would.
  const working = activationModel();
  const dying = new MockLanguageModelV3({
    modelId: "activation-mock",
    doGenerate: async (options) => {
      const last = options.prompt[options.prompt.length - 1]!;
      if (last.role !== "tool" && ++answered > 2) await dead;
      return working.doGenerate(options);
    },
  });
  const t = useTestApp(kind, { model: { model: dying, id: "mock:activation" }, judgeConcurrency: 1 });

  it("is finished by another instance, keeping the case-runs already done", async () => {
    const started = await (await t.call("POST", "/api/v1/evals/runs", { json: { promptSet: PROMPTS, activator: "model" } })).json();
    await expect.poll(async () => (await t.app.db.select().from(evalResults).where(eq(evalResults.runId, started.id))).length).toBe(2);
    // The instance goes away: closing it ends its leases at once (a killed one's run out on their own).
    await t.app.close();

    const model = activationModel();
    const other = anotherInstance(t.app, { model: { model, id: "mock:activation" }, judgeConcurrency: 1 });
    try {
      expect(await recoverRuns(other)).toEqual([started.id]);
      // Nothing is left to take over while the new owner holds the lease.
      expect(await recoverRuns(anotherInstance(t.app))).toEqual([]);
      await expect
        .poll(async () => (await t.app.db.select().from(evalRuns).where(eq(evalRuns.id, started.id)))[0]?.status)
        .toBe("finished");
      const [run] = await t.app.db.select().from(evalRuns).where(eq(evalRuns.id, started.id));
      expect([run!.leaseOwner?.startsWith(`${other.work.instanceId}:`), run!.done, run!.caseRuns]).toEqual([
        true,
        PROMPTS.cases.length,
        PROMPTS.cases.length,
      ]);
      // The second instance asked the model only for the case-runs the first had not written.
      const prompts = model.doGenerateCalls.filter((call) => call.prompt[call.prompt.length - 1]!.role !== "tool");
      expect(prompts.length).toBe(PROMPTS.cases.length - 2);
      const report = await (await t.call("GET", `/api/v1/evals/runs/${started.id}`)).json();
      expect(report.results.map((r: { id: string; passed: boolean }) => [r.id, r.passed])).toEqual(
        PROMPTS.cases.map((c) => [c.id, true]).sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
      expect(report.metrics.activationRate).toBe(1);
    } finally {
      await other.close();
    }
  });
});
