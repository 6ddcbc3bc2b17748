import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, installLinks } from "@/db/schema";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { isAppError } from "@/lib/errors";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/**
 * A lead's revoke clicked twice, or sent by a script and a person at once: one revocation wins, the
 * rest are told it is already gone, and the row holds the winner's time and nothing half-written.
 */
describe.each(testDbKinds)("concurrent revokes on %s", (kind) => {
  const t = useTestApp(kind);
  const RACERS = 16;

  it("16 concurrent DELETEs of one install link: one 200, fifteen 404 InstallLinkNotFound, one revokedAt, and the link answers 401", async () => {
    const created = await t.call("POST", "/api/v1/install-links");
    expect(created.status).toBe(201);
    const link = (await created.json()) as { id: number; url: string };
    const answers = await Promise.all(Array.from({ length: RACERS }, () => t.call("DELETE", `/api/v1/install-links/${link.id}`)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: RACERS - 1 }, () => 404)]);
    const winner = answers.find((res) => res.status === 200)!;
    const body = (await winner.json()) as { id: number; revokedAt: string };
    for (const loser of answers.filter((res) => res.status === 404)) {
      expect(await errorOf(loser)).toEqual({ code: "InstallLinkNotFound", message: `no active install link ${link.id} in this team` });
    }
    const rows = await t.app.db.select().from(installLinks).where(eq(installLinks.id, link.id));
    expect(rows.map((row) => row.revokedAt?.toISOString())).toEqual([body.revokedAt]);
    const index = await t.call("GET", `${new URL(link.url).pathname}/.well-known/skills/index.json`, { key: null });
    expect(index.status).toBe(401);
  });

  it("16 concurrent revokes of one API key (what the settings action calls): one done, fifteen NotFound, one revokedAt, and the key answers 401", async () => {
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "raced", scopes: ["read"], createdBy: null });
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    const outcomes = await Promise.allSettled(Array.from({ length: RACERS }, () => revokeApiKey(t.app.db, t.alpha.team.id, id)));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
    expect(refusals.map((error) => (isAppError(error) ? [error.code, error.status, error.message] : error))).toEqual(
      Array.from({ length: RACERS - 1 }, () => ["NotFound", 404, `no active API key ${id} in this team`]),
    );
    const rows = await t.app.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.revokedAt).toBeInstanceOf(Date);
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(401);
  });
});
