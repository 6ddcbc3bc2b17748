import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isDatabaseOutage } from "@/db/outage";
import { hashApiKey } from "@/lib/auth/api-keys";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { errorOf, fetchApp, startTestApp, type TestApp } from "../helpers/app";
import { postgresBinaries, startOwnedCluster, type OwnedCluster } from "../helpers/owned-cluster";
import { waitFor, waitUntil } from "../helpers/wait";

/**
 * An operator stops PostgreSQL (`pg_ctl stop -m fast`: every connection is told "terminating
 * connection due to administrator command" and closed) and starts it again, under a running app
 * (docs/outages.md#stale-answers). Agents keep reading, marked stale; writes answer 503; the app recovers without a
 * restart; nothing is thrown past the app; the log says each outage once per kind of work, with
 * a count, and never holds a query's parameters.
 */
describe.runIf(process.env.TEST_DATABASE_URL && postgresBinaries())("a PostgreSQL server stopped and started again", () => {
  let cluster: OwnedCluster;
  let t: TestApp & { close(): Promise<void> };
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  beforeAll(async () => {
    cluster = await startOwnedCluster();
    process.on("uncaughtException", onUncaught);
    process.on("unhandledRejection", onUncaught);
  });
  afterEach(async () => t?.close());
  afterAll(() => {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUncaught);
    cluster?.destroy();
  });

  it("keeps serving what agents read, refuses writes with 503, recovers, and logs each outage once without parameters", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    t = await startTestApp("postgres", { databaseServer: cluster.url });
    const created = await t.call("POST", "/api/v1/skills", {
      json: { name: "steady", description: "Steady. Use when testing restarts.", body: "# Steady\n", status: "active" },
    });
    expect(created.status).toBe(201);
    const view = await t.call("GET", "/api/v1/skills/steady");
    expect(view.status).toBe(200);
    const body = await view.text();
    // A transaction holding its connection between two statements when the server goes: the
    // connection's error has no query to go to, and must not end the process.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun = false;
    const transaction = t.app.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        begun = true;
        await held;
        await tx.execute(sql`select 1`);
      })
      .then(
        () => "committed",
        (error: unknown) => (isDatabaseOutage(error) ? "outage" : String(error)),
      );
    await waitFor(() => begun, { what: "the transaction's first statement" });

    // A REST client and an MCP client read steady all along, while the server stops.
    const mcp = new Client({ name: "restart-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("http://skillgate.test/api/mcp"), {
        requestInit: { headers: { authorization: `Bearer ${t.alpha.key}` } },
        fetch: (url, init) => fetchApp(new Request(url, init)),
      }),
    );
    const answers = { rest: [] as string[], mcp: [] as string[] };
    let reading = true;
    // Answers from memory take no I/O: a pause lets timers (and the other reader) run.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
    const readers = [
      (async () => {
        while (reading) {
          const res = await t.call("GET", "/api/v1/skills/steady");
          const text = await res.text();
          answers.rest.push(`${res.status} ${res.headers.has("x-skillgate-stale") ? "stale" : "fresh"} ${text === body}`);
          await pause();
        }
      })(),
      (async () => {
        while (reading) {
          const result = (await mcp.callTool({ name: "skill_view", arguments: { name: "steady" } })) as {
            content: { text: string }[];
            isError?: boolean;
            _meta?: Record<string, unknown>;
          };
          const marked = result._meta?.["skillgate/stale"] !== undefined ? "stale" : "fresh";
          answers.mcp.push(`${result.isError ? "error" : "ok"} ${marked} ${result.content[0]?.text === body}`);
          await pause();
        }
      })(),
    ];

    cluster.stop();
    await waitUntil(
      async () => t.app.database.teamChanges?.live,
      (live) => live === false,
      { what: "the instance to notice the server stopped", intervalMs: 50 },
    );
    await waitFor(
      () => answers.rest.filter((a) => a.includes("stale")).length >= 3 && answers.mcp.filter((a) => a.includes("stale")).length >= 3,
      {
        what: "three stale answers to each reader",
      },
    );
    reading = false;
    await Promise.all(readers);
    await mcp.close();
    // Every answer was the skill: fresh before the stop, stale after, never an error.
    expect(new Set(answers.rest)).toEqual(new Set(["200 fresh true", "200 stale true"].filter((a) => answers.rest.includes(a))));
    expect(answers.rest).toContain("200 stale true");
    expect(new Set(answers.mcp)).toEqual(new Set(["ok fresh true", "ok stale true"].filter((a) => answers.mcp.includes(a))));
    expect(answers.mcp).toContain("ok stale true");
    const stale = await t.call("GET", "/api/v1/skills/steady");
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-skillgate-stale")).toMatch(/^\d+$/);
    expect(await stale.text()).toBe(body);
    const secretBody = "# Never logged\nTHE-BODY-OF-A-WRITE-DURING-THE-OUTAGE\n";
    const refused = await t.call("PUT", "/api/v1/skills/steady", { json: { body: secretBody, expectedVersion: 1 } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await errorOf(refused)).toEqual({ code: "DatabaseUnavailable", message: "the database is unavailable; try again shortly" });
    release();
    expect(await transaction).toBe("outage");
    // Three attempts to write the two views: one line when it starts.
    for (let attempt = 0; attempt < 3; attempt++) await t.app.views.flush();

    cluster.start();
    await waitUntil(
      async () => (await t.call("GET", "/api/health", { key: null })).status,
      (status) => status === 200,
      { what: "health to answer 200 once the server is back", intervalMs: 100 },
    );
    const updated = await t.call("PUT", "/api/v1/skills/steady", { json: { body: "# Steady\nAgain.\n", expectedVersion: 1 } });
    expect(updated.status).toBe(200);
    await t.app.views.flush();
    const usage = (await (await t.call("GET", "/api/v1/usage")).json()) as { skills: { name: string; views7d: number }[] };
    // Every skill_view counted, those answered from memory included: the first, the readers', the last stale one.
    expect(usage.skills.find((skill) => skill.name === "steady")?.views7d).toBe(2 + answers.rest.length + answers.mcp.length);

    const lines = logged.mock.calls.map((call) => call.map(String).join(" "));
    const views = lines.filter((line) => line.startsWith("skillgate: writing skill views:"));
    expect(views).toHaveLength(2);
    expect(views[0]).toMatch(/^skillgate: writing skill views: the database is unavailable \(.+\); trying again until it answers$/);
    expect(views[1]).toMatch(/^skillgate: writing skill views: the database answers again, after 3 failed attempt\(s\) over \d+ s$/);
    for (const secret of ["THE-BODY-OF-A-WRITE-DURING-THE-OUTAGE", hashApiKey(t.alpha.key), t.alpha.key]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    expect(uncaught).toEqual([]);
    vi.restoreAllMocks();
  });
});
