import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { startOpenAiStub, type OpenAiStub } from "../helpers/openai-stub";
import { pgbouncerBinary, startPgbouncer, type Pgbouncer } from "../helpers/pgbouncer";
import { scratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

const KEY = "sg_instances_test_key_0000000000001";
const LIMIT_KEY = "sg_instances_test_key_0000000000002";
const LIMIT = 400;

/** How the instances reach the server: directly, or through PgBouncer in transaction mode with a direct URL beside it (issue 38). */
const connections = [
  { via: "directly", pooled: false },
  ...(pgbouncerBinary() ? [{ via: "through PgBouncer in transaction mode", pooled: true }] : []),
];

/**
 * Several instances of the built app on one PostgreSQL (issue 14): a key's limit is one limit, an MCP
 * session moves between them, a change made on one is served by the other, and a run whose
 * instance is killed is finished by the other —
 * with the instances on the server directly, and behind a pooler in transaction mode (issue 38).
 */
describe.runIf(process.env.TEST_DATABASE_URL).each(connections)("two instances on one PostgreSQL, $via", ({ pooled }) => {
  it("share a rate limit, an MCP session, a catalog change and a run the killed one was working on", async () => {
    const scratch = await scratchDatabase("skillgate_instances");
    const bouncer: Pgbouncer | null = pooled ? await startPgbouncer(scratch.url) : null;
    // Loads systematic-debugging for prompts about a bug, nothing otherwise. It answers two case-runs'
    // prompts, then holds every answer from the third on until released: the instance that runs
    // them is killed mid-run, however fast it works.
    let prompts = 0;
    const model: OpenAiStub = await startOpenAiStub(({ prompt, afterTool }) => {
      if (afterTool) return "Following it.";
      if (++prompts === 3) model.hold();
      return /bug/.test(prompt) ? { tool: "skill_view", args: { name: "systematic-debugging" } } : "No skill applies.";
    });
    const env = {
      ...(bouncer ? { DATABASE_URL: bouncer.url, DATABASE_URL_UNPOOLED: scratch.url } : { DATABASE_URL: scratch.url }),
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "multi,limits",
      SKILLGATE_INIT_API_KEY: `${KEY},${LIMIT_KEY}`,
      SKILLGATE_RATE_LIMIT: String(LIMIT),
      SKILLGATE_LEASE_SECONDS: "3",
      SKILLGATE_JUDGE_CONCURRENCY: "1",
      SKILLGATE_MODEL: "openai-compatible:stub",
      SKILLGATE_OPENAI_BASE_URL: model.baseUrl,
    };
    const servers: RunningServer[] = [];
    try {
      const first = await startServer(env);
      servers.push(first);
      const second = await startServer(env);
      servers.push(second);
      if (bouncer) {
        // Queries through the pooler; what needs a session straight to the server.
        const name = new URL(scratch.url).pathname.slice(1);
        const direct = new URL(scratch.url);
        expect(second.output()).toContain(
          `skillgate: database: DATABASE_URL (127.0.0.1:${new URL(bouncer.url).port}/${name}, pooled) for queries; ` +
            `DATABASE_URL_UNPOOLED (${direct.hostname}:${direct.port || "5432"}/${name}) for change notifications (LISTEN), the migrations' lock and outage probes\n`,
        );
      }
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

      // One limit for a key, whichever instance answers: requests alternate until both refuse, and
      // exactly the limit got through (each instance claims it in chunks of a twentieth).
      let admitted = 0;
      for (let i = 0, refusedInARow = 0; refusedInARow < 4; i++) {
        const res = await fetch(`${(i % 2 ? second : first).url}/api/v1/listing`, { headers: { authorization: `Bearer ${LIMIT_KEY}` } });
        if (res.status === 200) admitted++;
        refusedInARow = res.status === 429 ? refusedInARow + 1 : 0;
      }
      expect(admitted).toBe(LIMIT);

      // An MCP session opened on the first instance continues on the second.
      let target = first.url;
      const client = new Client({ name: "instances-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${first.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
        fetch: (input, init) => fetch(String(input).replace(first.url, target), init),
      });
      await client.connect(transport);
      target = second.url;
      const listed = (await client.callTool({ name: "skill_list", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      expect(listed.isError).toBeUndefined();
      expect(listed.content[0]!.text).toContain("- systematic-debugging:");
      const viewed = (await client.callTool({ name: "skill_view", arguments: { name: "writing-plans" } })) as { isError?: boolean };
      expect(viewed.isError).toBeUndefined();
      await client.close();
      // The view the second instance recorded is counted once, read from either instance.
      const usage = async (server: RunningServer) => {
        const body = (await (await fetch(`${server.url}/api/v1/usage`, { headers })).json()) as {
          skills: { name: string; views30d: number; sessions: number }[];
        };
        return body.skills.find((skill) => skill.name === "writing-plans");
      };
      await expect.poll(() => usage(first), { timeout: 10_000 }).toMatchObject({ views30d: 1, sessions: 1 });
      expect(await usage(second)).toMatchObject({ views30d: 1, sessions: 1 });

      // What a key authenticates as is cached in each instance: a sync on the first is listed by the
      // second once the database's notice arrives, not after the cache's minute.
      const listing = async (server: RunningServer) => (await fetch(`${server.url}/api/v1/listing`, { headers })).text();
      expect(await listing(second)).not.toContain("cross-instance");
      const skillMd = "---\nname: cross-instance\ndescription: Crosses instances. Use when testing.\n---\n# Cross\n";
      const synced = await fetch(`${first.url}/api/v1/skills/sync`, {
        method: "POST",
        headers,
        body: JSON.stringify({ files: [{ path: "cross-instance/SKILL.md", content: skillMd }] }),
      });
      expect(synced.status).toBe(200);
      await expect
        .poll(() => listing(second), { timeout: 2_000, interval: 20 })
        .toContain("- cross-instance: Crosses instances. Use when testing.");

      // A model run started on the first instance, which is killed halfway, is finished by the second.
      const promptSet = {
        name: "multi",
        cases: [
          { id: "D1", prompt: "Find the root cause of this bug", expected: ["systematic-debugging"] },
          { id: "G1", prompt: "What is the capital of France?", expectNone: true },
        ],
      };
      const started = await fetch(`${first.url}/api/v1/evals/runs`, {
        method: "POST",
        headers,
        body: JSON.stringify({ promptSet, activator: "model", trials: 4 }),
      });
      expect(started.status).toBe(201);
      const run = (await started.json()) as { id: number };
      const report = async () =>
        (await (await fetch(`${second.url}/api/v1/evals/runs/${run.id}`, { headers })).json()) as {
          status: string;
          done: number;
          caseRuns: number;
          metrics?: { activationRate: number };
        };
      await expect.poll(async () => (await report()).done, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      await waitFor(() => prompts >= 3, { what: "the first instance to ask about its third case-run" });
      first.process.kill("SIGKILL");
      const doneWhenKilled = (await report()).done;
      expect(doneWhenKilled).toBeLessThan(8);
      // The second instance takes the run over once the killed one's lease runs out; its answers come at once.
      model.release();
      await expect.poll(async () => (await report()).status, { timeout: 30_000, interval: 500 }).toBe("finished");
      const finished = await report();
      expect([finished.done, finished.caseRuns, finished.metrics?.activationRate]).toEqual([8, 8, 1]);
    } finally {
      for (const server of servers) await server.stop();
      await model.close();
      bouncer?.stop();
      await scratch.drop();
    }
  });
});
