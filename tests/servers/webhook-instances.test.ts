import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/webhooks/signature";
import { scratchDatabase } from "../helpers/scratch-database";
import { startServer, type RunningServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";
import { startReceiver } from "../helpers/webhook-receiver";

const KEY = "sg_webhook_instances_key_000000001";

/**
 * Issue 39: a delivery is durable and goes out once whatever the number of instances. Two built
 * instances on one PostgreSQL; an event made on one; whichever instance claims its delivery is
 * killed (`SIGKILL`) after the claim and before anything is sent — it is held resolving the
 * receiver's name (tests/helpers/stall-dns.mjs) — and the other sends it once its lease runs out:
 * the receiver gets exactly one delivery, signed, from the survivor.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("a webhook delivery with two instances and a kill -9 between enqueue and send", () => {
  it("reaches the receiver exactly once, from the instance that survived", async () => {
    const scratch = await scratchDatabase("skillgate_webhook_instances");
    const receiver = await startReceiver();
    const stalls = mkdtempSync(path.join(tmpdir(), "skillgate-stall-dns-"));
    const env = {
      DATABASE_URL: scratch.url,
      SKILLGATE_DEMO: "0",
      SKILLGATE_INIT_TEAM: "hooks",
      SKILLGATE_INIT_API_KEY: KEY,
      // Leases of 3 s: a receiver gets 1 s to answer, and a dead instance's claim is taken over within seconds.
      SKILLGATE_LEASE_SECONDS: "3",
      NODE_OPTIONS: `--import ${path.resolve("tests/helpers/stall-dns.mjs")}`,
      STALL_DNS_HOST: "receiver.test",
      STALL_DNS_DIR: stalls,
    };
    const servers: RunningServer[] = [];
    const db = new pg.Client({ connectionString: scratch.url });
    try {
      servers.push(await startServer(env), await startServer(env));
      const [first, second] = servers as [RunningServer, RunningServer];
      const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
      const created = await fetch(`${first.url}/api/v1/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: `http://receiver.test:${new URL(receiver.url).port}/hook`, events: ["sync.finished"] }),
      });
      expect(created.status).toBe(201);
      const { secret } = (await created.json()) as { secret: string };

      const synced = await fetch(`${first.url}/api/v1/skills/sync`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          files: [{ path: "kill-nine/SKILL.md", content: "---\nname: kill-nine\ndescription: Survives. Use when testing.\n---\n# K\n" }],
        }),
      });
      expect(synced.status).toBe(200);

      // One instance claimed the delivery and is resolving the receiver's name: nothing is sent yet.
      const [waiting] = await waitUntil(
        () => readdirSync(stalls).filter((file) => file.startsWith("waiting-")),
        (files) => files.length > 0,
        { what: "an instance to claim the delivery" },
      );
      const claimer = servers.find((server) => `waiting-${server.process.pid}` === waiting);
      expect(claimer, `${waiting} is one of the two servers`).toBeDefined();
      const survivor = claimer === first ? second : first;
      await db.connect();
      const before = (await db.query("select status, attempts, lease_owner from webhook_deliveries")).rows;
      expect(before).toEqual([{ status: "pending", attempts: 0, lease_owner: expect.any(String) }]);
      claimer!.process.kill("SIGKILL");
      await new Promise((resolve) => claimer!.process.once("exit", resolve));
      writeFileSync(path.join(stalls, "release"), "");
      expect(receiver.received).toEqual([]);

      // The survivor takes the delivery over once the dead instance's lease has run out, and sends it.
      const [got] = await waitUntil(
        () => receiver.received,
        (all) => all.length >= 1,
        { what: "the delivery", timeoutMs: 30_000 },
      );
      expect(verifySignature(secret, String(got!.headers["x-skillgate-signature"]), got!.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(JSON.parse(got!.body)).toMatchObject({ event: "sync.finished", team: "hooks", data: { added: 1, updated: 0, removed: 0 } });
      const after = await waitUntil(
        async () => (await db.query("select id, status, attempts, lease_owner from webhook_deliveries")).rows,
        (rows) => rows[0]?.status === "delivered",
        { what: "the delivery to be recorded" },
      );
      expect(after).toEqual([{ id: expect.any(Number), status: "delivered", attempts: 1, lease_owner: null }]);
      expect((await db.query("select status_code from webhook_attempts")).rows).toEqual([{ status_code: 200 }]);
      // Nothing more comes, from either.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(receiver.received).toHaveLength(1);
      expect(survivor.process.exitCode).toBeNull();
    } finally {
      await db.end().catch(() => {});
      for (const server of servers) await server.stop();
      await receiver.close();
      await scratch.drop();
    }
  });
});
