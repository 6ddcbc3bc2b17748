import { asc, eq, inArray } from "drizzle-orm";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { evalRuns } from "@/db/schema";
import { recoverRuns } from "@/lib/activation/runs";
import { anotherInstance, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { mockAnswer } from "../helpers/judge";

const PROMPTS = { name: "tiny", cases: [{ id: "G1", prompt: "What is the capital of France?", expectNone: true }] };

/** A model that answers every prompt with no skill. */
const answering = () => new MockLanguageModelV3({ modelId: "activation-mock", doGenerate: async () => mockAnswer("No skill applies.") });

/**
 * The one leased worker (lib/jobs/worker.ts): an instance that comes back to a backlog of expired
 * work takes only its share per tick, and the next instance (or tick) takes the rest.
 */
describe.each(testDbKinds)("taking over expired runs, on %s", (kind) => {
  // The first instance's model never answers, as a stopped process would not.
  const hanging = new MockLanguageModelV3({ modelId: "activation-mock", doGenerate: () => new Promise(() => {}) });
  const t = useTestApp(kind, { model: { model: hanging, id: "mock:activation" }, judgeConcurrency: 1 });

  it("claims at most claimsPerTick expired runs per tick, and every run is finished in the end", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.call("POST", "/api/v1/evals/runs", { json: { promptSet: PROMPTS, activator: "model" } });
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { id: number }).id);
    }
    // The instance goes away: closing it ends its leases at once.
    await t.app.close();

    const options = { model: { model: answering(), id: "mock:activation" }, claimsPerTick: 2 };
    const first = anotherInstance(t.app, options);
    const second = anotherInstance(t.app, options);
    try {
      expect(await recoverRuns(first)).toEqual(ids.slice(0, 2));
      expect(await recoverRuns(second)).toEqual(ids.slice(2));
      expect(await recoverRuns(anotherInstance(t.app, options))).toEqual([]);
      await expect
        .poll(async () =>
          (
            await t.app.db.select({ status: evalRuns.status }).from(evalRuns).where(inArray(evalRuns.id, ids)).orderBy(asc(evalRuns.id))
          ).map((r) => r.status),
        )
        .toEqual(["finished", "finished", "finished"]);
      const owners = await t.app.db
        .select({ id: evalRuns.id, owner: evalRuns.leaseOwner })
        .from(evalRuns)
        .where(eq(evalRuns.status, "finished"));
      const ownerOf = new Map(owners.map((row) => [row.id, row.owner?.split(":")[0]]));
      expect(ids.map((id) => ownerOf.get(id))).toEqual([first.work.instanceId, first.work.instanceId, second.work.instanceId]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
