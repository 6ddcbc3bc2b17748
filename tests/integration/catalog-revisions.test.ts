import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { singleRow } from "@/db/rows";
import { teams } from "@/db/schema";
import { findTeam } from "@/lib/teams/teams";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

describe.each(testDbKinds)("what a write invalidates, on %s", (kind) => {
  const t = useTestApp(kind);

  const revisions = async () => {
    return singleRow(
      await t.app.db
        .select({ listed: teams.catalogRevision, drafts: teams.draftsRevision })
        .from(teams)
        .where(eq(teams.id, t.alpha.team.id)),
    );
  };
  const listing = async () => {
    const team = await findTeam(t.app.db, "alpha");
    if (!team) throw new Error("alpha is gone");
    return t.app.catalogs.listing(team, { cap: team.listingCap, descMax: team.descMax, loadHint: team.loadHint });
  };

  it("leaves the listing cached while drafts are written, edited and archived, and renders it again once one is promoted", async () => {
    const before = await listing();
    const start = await revisions();

    const created = await t.call("POST", "/api/v1/skills", {
      json: { name: "draft-notes", description: "Takes notes. Use when drafting.", body: "# Notes\n" },
    });
    expect(created.status).toBe(201);
    const edited = await t.call("PUT", "/api/v1/skills/draft-notes", {
      json: { description: "Takes better notes. Use when drafting.", body: "# Notes\n\nv2\n", expectedVersion: 1 },
    });
    expect([edited.status, await edited.json()]).toEqual([200, { name: "draft-notes", version: 2 }]);
    expect(await revisions()).toEqual({ listed: start.listed, drafts: start.drafts + 2 });
    // The same rendered listing object: nothing was loaded or rendered again.
    expect(await listing()).toBe(before);
    // The draft is served at once: the drafts part was loaded again.
    const view = await t.call("GET", "/api/v1/skills/draft-notes");
    expect([view.status, view.headers.get("x-skill-version"), view.headers.get("x-skill-source")]).toEqual([200, "2", "draft"]);

    expect((await t.call("POST", "/api/v1/skills/draft-notes/promote")).status).toBe(200);
    expect(await revisions()).toEqual({ listed: start.listed + 1, drafts: start.drafts + 3 });
    const after = await listing();
    expect(after).not.toBe(before);
    expect(after.text).toContain("draft-notes: Takes better notes.");
    expect(before.text).not.toContain("draft-notes");

    expect(
      (await t.call("POST", "/api/v1/skills", { json: { name: "gone-draft", description: "Goes. Use when never.", body: "# x\n" } }))
        .status,
    ).toBe(201);
    expect((await t.call("DELETE", "/api/v1/skills/gone-draft")).status).toBe(200);
    expect(await revisions()).toEqual({ listed: start.listed + 1, drafts: start.drafts + 5 });
    expect(await listing()).toBe(after);
    expect((await t.call("GET", "/api/v1/skills/gone-draft")).status).toBe(404);
  });
});
