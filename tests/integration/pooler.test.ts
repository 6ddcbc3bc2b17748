import { afterAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { anotherInstance, errorOf, useTestApp } from "../helpers/app";
import { installApp } from "@/lib/current-app";
import { pgbouncerBinary, startPgbouncer, type Pgbouncer } from "../helpers/pgbouncer";
import { waitUntil } from "../helpers/wait";

/**
 * Skillgate behind a pooler in transaction mode (docs/deploy.md#behind-pgbouncer-or-neons-pooler-transaction-mode; docs/deploy.md), as Neon's pooled URL
 * and PgBouncer's `pool_mode = transaction` give it: a pooled connection is ours for one
 * transaction only, so no start-up parameter the pooler does not know, no LISTEN on it, no session
 * lock. DATABASE_URL goes through PgBouncer (Debian's package, started here); what needs a session
 * goes to DATABASE_URL_UNPOOLED. A write that changes a team waits until this instance has heard its
 * notice, so the next request sees it; other instances hear it as soon as the notice arrives.
 */
const skill = (name: string) => ({
  path: `${name}/SKILL.md`,
  content: `---\nname: ${name}\ndescription: ${name}. Use when pooling.\n---\n# ${name}\n`,
});

describe.runIf(process.env.TEST_DATABASE_URL && pgbouncerBinary())("behind PgBouncer in transaction mode", () => {
  let bouncer: Pgbouncer | undefined;
  const t = useTestApp("postgres", {
    databasePooler: async (url) => {
      bouncer = await startPgbouncer(url);
      return bouncer.url;
    },
  });
  afterAll(() => bouncer?.stop());

  it("says what each URL is for, and serves through the pooler", async () => {
    const pooled = new URL(bouncer!.url);
    const direct = new URL(process.env.TEST_DATABASE_URL!);
    const name = t.app.database.location.split("/")[1];
    expect(t.app.database.uses).toBe(
      `DATABASE_URL (127.0.0.1:${pooled.port}/${name}, pooled) for queries; ` +
        `DATABASE_URL_UNPOOLED (${direct.hostname}:${direct.port || "5432"}/${name}) for change notifications (LISTEN), the migrations' lock and outage probes`,
    );
    const sync = await t.call("POST", "/api/v1/skills/sync", { json: { files: [skill("pooled-one")] } });
    expect(sync.status).toBe(200);
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain("- pooled-one: pooled-one. Use when pooling.");
  });

  it("sees its own change on the next request: a sync, a revoked key (16 times over)", async () => {
    for (let i = 0; i < 16; i++) {
      const sync = await t.call("POST", "/api/v1/skills/sync", { json: { files: [skill(`own-${i}`)] } });
      expect(sync.status).toBe(200);
      const listing = await (await t.call("GET", "/api/v1/listing")).text();
      expect(listing).toContain(`- own-${i}: own-${i}. Use when pooling.`);
      expect(listing).not.toContain(`- own-${i - 1}:`);
    }
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "short-lived", scopes: ["read"] });
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    await revokeApiKey(t.app.db, t.alpha.team.id, id);
    const refused = await t.call("GET", "/api/v1/listing", { key });
    expect(refused.status).toBe(401);
    expect(await errorOf(refused)).toEqual({ code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" });
  });

  it("lets another instance see a change once the notice arrives, not after the cache's minute", async () => {
    const other = anotherInstance(t.app);
    const listingOn = async (app: typeof other) => {
      const uninstall = installApp(app);
      try {
        return await (await t.call("GET", "/api/v1/listing")).text();
      } finally {
        uninstall();
      }
    };
    try {
      expect(await listingOn(other)).not.toContain("- elsewhere:");
      expect((await t.call("POST", "/api/v1/skills/sync", { json: { files: [skill("elsewhere")] } })).status).toBe(200);
      await waitUntil(
        () => listingOn(other),
        (text) => text.includes("- elsewhere: elsewhere. Use when pooling."),
        { what: "the other instance to list the synced skill", timeoutMs: 2_000 },
      );
    } finally {
      await other.close();
    }
  });
});
