// `npm run bench`: performance as ratios measured in one run (SPEC §14). Prints a table and
// writes bench/results.json. Not part of the tests: figures vary with the machine, ratios less so.
import { writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { openDatabase } from "../db/client";
import { only } from "../db/rows";
import { ledgerRecords, ledgers } from "../db/schema";
import { readLedger } from "../lib/ledger/append";
import { formatLedger, type LedgerSlug } from "../lib/ledger/records";
import { renderListing, LISTING_SCOPES, type ListingSkill } from "../lib/listing/render";
import { ensureTeam } from "../lib/teams/teams";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { startServer } from "../tests/helpers/server";

interface Row {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  ratio: number;
  aim: string;
}

const rows: Row[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error("no timings to take the median of");
  return middle;
}

/** Item `i` of `items` repeated end to end. */
function cycled<T>(items: readonly T[], i: number): T {
  const item = items[i % items.length];
  if (item === undefined) throw new Error("nothing to cycle through");
  return item;
}

function timeIt(fn: () => unknown, runs: number): number {
  for (let i = 0; i < 5; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

function benchRender(): void {
  const skills: ListingSkill[] = Array.from({ length: 10_000 }, (_, i) => ({
    name: `skill-${String(i).padStart(5, "0")}`,
    scope: cycled(LISTING_SCOPES, i),
    description: `Does task number ${i} with care and a long explanation of when it applies. Use when task ${i} comes up.`,
  }));
  const settings = { cap: 8000, descMax: 60, loadHint: "skill_view" };
  const render = timeIt(() => renderListing(skills, [], settings), 100);
  const join = timeIt(() => skills.map((s) => `- ${s.name}: ${s.description}`).join("\n"), 100);
  rows.push({
    name: "listing render, 10,000 skills",
    value: render,
    unit: "ms",
    baseline: "plain join of the same lines",
    baselineValue: join,
    ratio: render / join,
    aim: "≤ 3×",
  });
}

async function load(
  url: string,
  key: string | null,
  options: { connections?: number; method?: "GET" | "POST"; body?: string } = {},
): Promise<{ rps: number; p99: number }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  if (options.body) headers["content-type"] = "application/json";
  const result = await autocannon({
    url,
    connections: options.connections ?? 32,
    duration: 8,
    headers,
    method: options.method ?? "GET",
    body: options.body,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function benchHttp(): Promise<void> {
  buildIfNeeded();
  const key = "sg_bench_key_000000000000000000001";
  const server = await startServer({
    SKILLGATE_DEMO: "0",
    SKILLGATE_INIT_TEAM: "bench",
    SKILLGATE_INIT_API_KEY: key,
    SKILLGATE_RATE_LIMIT: "0",
  });
  try {
    const files = Array.from({ length: 2000 }, (_, i) => {
      const name = `bench-skill-${i}`;
      return {
        path: `${name}/SKILL.md`,
        content: `---\nname: ${name}\ndescription: Benchmarks skill ${i}. Use when measuring.\n---\n# ${name}\n\n${"Step. ".repeat(200)}\n`,
      };
    });
    const sync = await fetch(`${server.url}/api/v1/skills/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ files }),
    });
    if (!sync.ok) throw new Error(`sync failed: ${sync.status} ${await sync.text()}`);
    const health = await load(`${server.url}/api/health`, null);
    const listing = await load(`${server.url}/api/v1/listing`, key);
    const view = await load(`${server.url}/api/v1/skills/bench-skill-1234`, key);
    for (const [name, figures] of [
      ["GET /api/v1/listing", listing],
      ["GET /api/v1/skills/<name>", view],
    ] as const) {
      rows.push({
        name: `${name} throughput (2,000 skills, PGlite, 32 connections)`,
        value: figures.rps,
        unit: "req/s",
        baseline: "GET /api/health",
        baselineValue: health.rps,
        ratio: figures.rps / health.rps,
        aim: "≥ 0.7×",
      });
      rows.push({
        name: `${name} p99 latency`,
        value: figures.p99,
        unit: "ms",
        baseline: "GET /api/health p99",
        baselineValue: health.p99,
        ratio: figures.p99 / health.p99,
        aim: "—",
      });
    }
    // Every request appends a hypothesis to one plan: the ledger row lock serializes them.
    const body = JSON.stringify({ action: "record-hypothesis", text: "Appends keep up under load" });
    const health16 = await load(`${server.url}/api/health`, null, { connections: 16 });
    const appends = await load(`${server.url}/api/v1/ledger/bench-plan`, key, { connections: 16, method: "POST", body });
    rows.push({
      name: "ledger appends (16 concurrent clients, one plan, PGlite)",
      value: appends.rps,
      unit: "appends/s",
      baseline: "GET /api/health, 16 clients",
      baselineValue: health16.rps,
      ratio: appends.rps / health16.rps,
      aim: "—",
    });
  } finally {
    await server.stop();
  }
}

/** `list` of a 10,000-record ledger against a bare SELECT of the same rows through the same driver. */
async function benchLedgerList(): Promise<void> {
  const database = await openDatabase({ dataDir: "memory://" });
  await database.migrate();
  try {
    const team = await ensureTeam(database.db, "bench");
    const ledger = only(await database.db.insert(ledgers).values({ teamId: team.id, slug: "big" }).returning());
    const kinds = ["hypothesis", "prediction", "verdict", "observation"] as const;
    for (let start = 0; start < 10_000; start += 1000) {
      await database.db.insert(ledgerRecords).values(
        Array.from({ length: 1000 }, (_, i) => {
          const n = start + i;
          const kind = cycled(kinds, n);
          const seq = Math.floor(n / 4) + 1;
          return {
            ledgerId: ledger.id,
            kind,
            seq,
            ref: kind === "prediction" ? `H${seq}` : kind === "verdict" ? `P${seq}` : null,
            text: kind === "verdict" ? null : `Record ${n}: a sentence of the length people write in a ledger entry.`,
            falsifiedBy: kind === "prediction" ? `npm test -- case-${n}` : null,
            verdict: kind === "verdict" ? ("confirmed" as const) : null,
            evidence: kind === "verdict" ? `output line ${n}` : null,
          };
        }),
      );
    }
    const slug = "big" as LedgerSlug;
    const list = await timeAsync(async () => formatLedger(slug, await readLedger(database.db, team.id, slug)), 20);
    const bare = await timeAsync(
      () => database.db.execute(sql`select * from ledger_records where ledger_id = ${ledger.id} order by id`),
      20,
    );
    rows.push({
      name: "ledger list, 10,000 records (PGlite)",
      value: list,
      unit: "ms",
      baseline: "bare SELECT of the same rows, same driver",
      baselineValue: bare,
      ratio: list / bare,
      aim: "—",
    });
  } finally {
    await database.close();
  }
}

async function timeAsync(fn: () => Promise<unknown>, runs: number): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** An evaluation of 10 cases against a mock judge that answers in 200 ms: calls, prompt size, and time beyond the judge's own. */
async function benchEvaluation(): Promise<void> {
  const { MockLanguageModelV3 } = await import("ai/test");
  const { createApp } = await import("../lib/app/app");
  const { createLearned } = await import("../lib/learned/write");
  const { proposeAmendment } = await import("../lib/evolution/amendments");
  const { evaluateAmendment } = await import("../lib/evolution/evaluate");
  const { SYSTEM } = await import("../lib/learned/actor");
  const { observations } = await import("../db/schema");
  const LATENCY = 200;
  let promptChars = 0;
  const model = new MockLanguageModelV3({
    modelId: "bench-judge",
    doGenerate: async (options) => {
      promptChars += JSON.stringify(options.prompt).length;
      await new Promise((resolve) => setTimeout(resolve, LATENCY));
      const scores = { correctness: 0.5, completeness: 0.5, adherence: 0.5 };
      return {
        content: [
          {
            type: "text" as const,
            text: JSON.stringify({ original: scores, amended: { ...scores, correctness: 0.7 }, rationale: "bench" }),
          },
        ],
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  const database = await openDatabase({ dataDir: "memory://" });
  await database.migrate();
  const app = createApp({ database, builtinSkillsDir: "skills", model: { model, id: "mock:bench-judge" }, judgeConcurrency: 4 });
  try {
    const team = await ensureTeam(app.db, "bench");
    await createLearned(app, team.id, SYSTEM, {
      name: "bench-skill",
      description: "Bench. Use when measuring.",
      body: "# Bench\n\n" + "1. A step of the procedure.\n".repeat(40),
      status: "active",
    });
    await app.db.insert(observations).values(
      Array.from({ length: 30 }, (_, i) => ({
        teamId: team.id,
        skillName: "bench-skill",
        version: 1,
        task: `Task ${i}: do the thing the way the team does it`,
        category: "bench",
        outcome: i % 2 === 0 ? ("failure" as const) : ("success" as const),
      })),
    );
    const fresh = await ensureTeam(app.db, "bench");
    const { id } = await proposeAmendment(app.db, app.catalogs, fresh, SYSTEM, "bench-skill", {
      body: "# Bench\n\n1. A clearer step.\n",
      rationale: "bench",
    });
    const calls = model.doGenerateCalls.length;
    const start = process.hrtime.bigint();
    const report = await evaluateAmendment(app, await ensureTeam(app.db, "bench"), SYSTEM, id);
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    const judged = model.doGenerateCalls.length - calls;
    rows.push({
      name: `evaluation of ${report.cases.length} cases: judge calls`,
      value: judged,
      unit: "calls",
      baseline: "cases",
      baselineValue: report.cases.length,
      ratio: judged / report.cases.length,
      aim: "1 per case",
    });
    rows.push({
      name: "evaluation of 10 cases: prompt characters",
      value: promptChars,
      unit: "chars",
      baseline: "per call",
      baselineValue: promptChars / judged,
      ratio: 1,
      aim: "—",
    });
    rows.push({
      name: "evaluation of 10 cases, judge answering in 200 ms",
      value: elapsed,
      unit: "ms",
      baseline: "10 × 200 ms one after another",
      baselineValue: 10 * LATENCY,
      ratio: elapsed / (10 * LATENCY),
      aim: "< 1× (bounded concurrency 4)",
    });
    rows.push({
      name: "evaluation overhead beyond the judge's latency",
      value: elapsed - Math.ceil(10 / 4) * LATENCY,
      unit: "ms",
      baseline: "3 rounds × 200 ms at concurrency 4",
      baselineValue: Math.ceil(10 / 4) * LATENCY,
      ratio: elapsed / (Math.ceil(10 / 4) * LATENCY),
      aim: "—",
    });
  } finally {
    await app.close();
  }
}

/** The overview and usage with 200 skills and a million observations and views, against the bare aggregates they need. */
async function benchOverview(): Promise<void> {
  const { createApp } = await import("../lib/app/app");
  const { syncWorkspace } = await import("../lib/skills/sync");
  const { teamOverview } = await import("../lib/overview/overview");
  const { usageReport } = await import("../lib/usage/usage");
  const { lexicalIndex, listingDocuments } = await import("../lib/activation/lexical");
  const { renderListing: render } = await import("../lib/listing/render");
  const database = await openDatabase({ dataDir: "memory://" });
  await database.migrate();
  const app = createApp({ database, builtinSkillsDir: "skills" });
  try {
    const team = await ensureTeam(app.db, "bench");
    const files = Array.from({ length: 200 }, (_, i) => ({
      path: `skill-${i}/SKILL.md`,
      content: Buffer.from(
        `---\nname: skill-${i}\ndescription: Handles task family ${i}. Use when family ${i} work comes up.\n---\nBody ${i}\n`,
      ),
      executable: false,
    }));
    await syncWorkspace(app.db, app.catalogs, team.id, { files, others: [] });
    const t0 = Date.now();
    await app.db.execute(sql`
      insert into observations (team_id, skill_name, version, task, category, outcome, created_at)
      select ${team.id}, 'skill-' || (g % 200), 1, 'task ' || g, 'bench', (array['success','failure','partial'])[1 + g % 3],
             now() - (g % 60) * interval '1 day'
      from generate_series(1, 1000000) g`);
    await app.db.execute(sql`
      insert into skill_views (team_id, skill_name, source, version, session_id, viewed_at)
      select ${team.id}, 'skill-' || (g % 200), 'file', 1, 's' || (g / 5), now() - (g % 45) * interval '1 day'
      from generate_series(1, 1000000) g`);
    console.log(`bench: 2,000,000 rows written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const fresh = await ensureTeam(app.db, "bench");
    const overview = await timeAsync(() => teamOverview(app, fresh), 5);
    const bareOverview = await timeAsync(
      () =>
        Promise.all([
          app.db.execute(
            sql`select skill_name, count(*) filter (where viewed_at >= now() - interval '7 days'), count(*) filter (where viewed_at >= now() - interval '30 days'), max(viewed_at) from skill_views where team_id = ${team.id} group by skill_name`,
          ),
          app.db.execute(
            sql`select skill_name, count(*), count(*) filter (where outcome = 'success') from observations where team_id = ${team.id} group by skill_name`,
          ),
        ]),
      5,
    );
    rows.push({
      name: "overview data: 200 skills, 1M observations, 1M views (PGlite)",
      value: overview,
      unit: "ms",
      baseline: "the bare aggregate SQL it needs",
      baselineValue: bareOverview,
      ratio: overview / bareOverview,
      aim: "—",
    });
    const usage = await timeAsync(() => usageReport(app, fresh), 5);
    const bareUsage = await timeAsync(
      () =>
        app.db.execute(
          sql`select skill_name, count(*), count(distinct session_id), max(viewed_at) from skill_views where team_id = ${team.id} group by skill_name`,
        ),
      5,
    );
    rows.push({
      name: "GET /api/v1/usage data: 1M views (PGlite)",
      value: usage,
      unit: "ms",
      baseline: "a bare per-skill aggregate of the views",
      baselineValue: bareUsage,
      ratio: usage / bareUsage,
      aim: "—",
    });

    const skills = Array.from({ length: 2000 }, (_, i) => ({
      name: `skill-${i}`,
      scope: "workspace" as const,
      description: `Handles the ${["billing", "search", "deploy", "auth", "payments"][i % 5]} task family ${i}. Use when ${i} breaks.`,
    }));
    const index = lexicalIndex(listingDocuments(render(skills, [], { cap: 1_000_000, descMax: 60, loadHint: "skill_view" })));
    const prompts = Array.from(
      { length: 1000 },
      (_, i) => `The ${["billing", "search", "deploy"][i % 3]} family ${i * 2} broke again this morning`,
    );
    const start = process.hrtime.bigint();
    for (const prompt of prompts) index.activate(prompt);
    const lexical = Number(process.hrtime.bigint() - start) / 1e6;
    rows.push({
      name: "lexical run: 1,000 cases over 2,000 skills",
      value: lexical,
      unit: "ms",
      baseline: "per case",
      baselineValue: lexical / 1000,
      ratio: 1,
      aim: "—",
    });
  } finally {
    await app.close();
  }
}

benchRender();
await benchOverview();
await benchEvaluation();
await benchLedgerList();
await benchHttp();
console.table(
  rows.map((r) => ({
    measure: r.name,
    value: `${r.value.toFixed(2)} ${r.unit}`,
    baseline: `${r.baseline}: ${r.baselineValue.toFixed(2)}`,
    ratio: `${r.ratio.toFixed(2)}×`,
    aim: r.aim,
  })),
);
writeFileSync("bench/results.json", `${JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
console.log("wrote bench/results.json");
