import { eq } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { teams } from "@/db/schema";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import type { App } from "@/lib/contracts/app";
import { createApp } from "@/lib/root/app";
import { syncWorkspace } from "@/lib/skills/sync";
import { useTestApp, type TestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";
import { waitUntil } from "../helpers/wait";

const AUTHENTICATE = /from api_keys k join teams t/;

/** How many times the app asked the database what a key authenticates as, from now on. */
function countKeyReads(t: TestApp): () => number {
  const query = vi.spyOn(t.app.database, "query");
  return () => query.mock.calls.filter(([text]) => AUTHENTICATE.test(text)).length;
}

function tree(name: string) {
  const file = { path: `${name}/SKILL.md`, content: Buffer.from(skillMd(name, `Does ${name}. Use when testing.`)), executable: false };
  return { files: [file], others: [] };
}

describe.each(testDbKinds)("what an API key authenticates as, cached in the App, on %s", (kind) => {
  const t = useTestApp(kind);
  afterEach(() => vi.restoreAllMocks());

  it("reads a key from the database once, then serves an agent's requests without asking", async () => {
    const keyReads = countKeyReads(t);
    for (let i = 0; i < 5; i++) expect((await t.call("GET", "/api/v1/listing")).status).toBe(200);
    expect((await t.call("GET", "/api/v1/skills/systematic-debugging")).status).toBe(200);
    expect(keyReads()).toBe(1);
  });

  it("refuses a revoked key on the very next request, however many requests are in flight around the revocation", async () => {
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "busy", scopes: ["read"] });
    let revoked = false;
    const answers: { afterRevocation: boolean; status: number }[] = [];
    const worker = async () => {
      while (answers.filter((answer) => answer.afterRevocation).length < 200) {
        const afterRevocation = revoked;
        const res = await t.call("GET", "/api/v1/listing", { key });
        answers.push({ afterRevocation, status: res.status });
        // A request served from memory never waits on I/O: let the timers (and the revocation) run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await waitUntil(
      async () => answers.length,
      (count) => count >= 40,
      { what: "a few answers" },
    );
    await revokeApiKey(t.app.db, t.alpha.team.id, id);
    revoked = true;
    // Before anything else gets to run: the notice must already have been heard.
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(401);
    await Promise.all(workers);
    const statuses = (after: boolean) => new Set(answers.filter((answer) => answer.afterRevocation === after).map((a) => a.status));
    expect(statuses(false)).toContain(200);
    expect([...statuses(true)]).toEqual([401]);
  });

  it("serves the catalog and settings a write outside any route changed on the very next request", async () => {
    const listing = async () => (await t.call("GET", "/api/v1/listing")).text();
    expect(await listing()).not.toContain("fresh-skill");
    await syncWorkspace(t.app.db, t.app.catalogs, t.alpha.team.id, tree("fresh-skill"));
    expect(await listing()).toContain("- fresh-skill: Does fresh-skill. Use when testing.");
    // One statement, straight to the table: whatever writes a team's row, the next request sees it.
    await t.app.db.update(teams).set({ loadHint: "the load_skill tool" }).where(eq(teams.id, t.alpha.team.id));
    expect((await listing()).split("\n")[0]).toBe(
      "[skills listing — prefer a matching skill over improvising; load bodies with the load_skill tool]",
    );
  });
});

describe.runIf(testDbKinds.includes("postgres"))("what an API key authenticates as, across instances on postgres", () => {
  const t = useTestApp("postgres");
  let other: { database: Database; app: App } | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await other?.app.close();
    other = undefined;
  });

  /** Another instance: its own pool and listening connection to the same database. */
  const openAnotherInstance = async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${t.app.database.location.split("/").pop()}`;
    const database = await openDatabase({ url: url.toString() });
    other = { database, app: createApp({ database, builtinSkillsDir: "skills" }) };
    return other;
  };

  /** Ends this instance's listening connection from the server's side, as a restart or a network cut would. */
  const cutListeningConnections = async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "select pg_terminate_backend(pid) as cut from pg_stat_activity where application_name = 'skillgate-listener' and datname = $1",
        [t.app.database.location.split("/").pop()],
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  };

  it("hears a revocation and a new catalog made by another instance, without a request asking the database", async () => {
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "shared", scopes: ["read"] });
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    const instance = await openAnotherInstance();

    await syncWorkspace(instance.app.db, instance.app.catalogs, t.alpha.team.id, tree("from-elsewhere"));
    const listing = await waitUntil(
      async () => (await t.call("GET", "/api/v1/listing", { key })).text(),
      (text) => text.includes("from-elsewhere"),
      { what: "the other instance's sync reaching this one" },
    );
    expect(listing).toContain("- from-elsewhere: Does from-elsewhere. Use when testing.");

    await revokeApiKey(instance.app.db, t.alpha.team.id, id);
    await waitUntil(
      async () => (await t.call("GET", "/api/v1/listing", { key })).status,
      (status) => status === 401,
      { what: "the other instance's revocation reaching this one" },
    );
  });

  it("connects its listening connection again when the server drops it, forgetting what it cached, and hears changes after", async () => {
    const feed = t.app.database.teamChanges!;
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "outlives", scopes: ["read"] });
    const keyReads = countKeyReads(t);
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    expect(keyReads()).toBe(1);

    expect(await cutListeningConnections()).toBe(1);
    await waitUntil(
      async () => feed.live,
      (live) => !live,
      { what: "the listening connection to be seen down" },
    );
    await waitUntil(
      async () => feed.live,
      (live) => live,
      { what: "the listening connection to be back" },
    );
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    expect(keyReads()).toBe(2);

    const instance = await openAnotherInstance();
    await revokeApiKey(instance.app.db, t.alpha.team.id, id);
    await waitUntil(
      async () => (await t.call("GET", "/api/v1/listing", { key })).status,
      (status) => status === 401,
      { what: "the revocation reaching this instance" },
    );
  });
});
