import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { skillEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { readTarGz } from "@/lib/skills/tar-gz";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";

/** Pinning (docs/learned-skills.md#pins): a lead pins the version agents get; skill_view and the listing serve it until unpinned. */
describe.each(testDbKinds)("pinned versions on %s", (kind) => {
  const t = useTestApp(kind);

  /** release-notes at v1 and v2, each with its own description. */
  const twoVersions = async () => {
    const created = await t.call("POST", "/api/v1/skills", {
      json: { name: "release-notes", description: "Writes release notes. Use when shipping.", body: "# v1\n", status: "active" },
    });
    expect(created.status).toBe(201);
    const updated = await t.call("PUT", "/api/v1/skills/release-notes", {
      json: { description: "Writes release notes, grouped. Use when a version ships.", body: "# v2\n", expectedVersion: 1 },
    });
    expect(updated.status).toBe(200);
  };

  it("serves the pinned version and its description until the pin is lifted; later edits wait behind it", async () => {
    await twoVersions();
    const pin = await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } });
    expect(await pin.json()).toEqual({ name: "release-notes", pinnedVersion: 1, served: { version: 1, why: "pinned" } });
    expect(await (await t.call("GET", "/api/v1/skills/release-notes")).text()).toBe("[skill release-notes | learned | v1]\n# v1\n");
    expect(await (await t.call("GET", "/api/v1/skills/release-notes?version=2")).text()).toBe(
      "[skill release-notes | learned | v2]\n# v2\n",
    );
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain("- release-notes: Writes release notes. Use when shipping.");
    const entry = (await (await t.call("GET", "/api/v1/skills")).json()).skills.find((s: { name: string }) => s.name === "release-notes");
    expect(entry).toMatchObject({ version: 1, pinned: true, description: "Writes release notes. Use when shipping." });

    // An edit makes v3, but agents keep getting v1.
    await t.call("PUT", "/api/v1/skills/release-notes", { json: { body: "# v3\n", expectedVersion: 2 } });
    expect((await t.call("GET", "/api/v1/skills/release-notes")).headers.get("x-skill-version")).toBe("1");

    const unpin = await t.call("DELETE", "/api/v1/skills/release-notes/pin");
    expect(await unpin.json()).toEqual({ name: "release-notes", pinnedVersion: null, version: 3, served: { version: 3, why: "latest" } });
    expect(await (await t.call("GET", "/api/v1/skills/release-notes")).text()).toBe("[skill release-notes | learned | v3]\n# v3\n");
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain(
      "- release-notes: Writes release notes, grouped. Use when a version ships.",
    );
    const again = await t.call("DELETE", "/api/v1/skills/release-notes/pin");
    expect([again.status, await errorOf(again)]).toEqual([
      409,
      { code: "NotPinned", message: "'release-notes' is not pinned: agents already get its latest version, v3" },
    ]);
    const events = await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "release-notes"));
    expect(events.filter((e) => e.kind === "pinned" || e.kind === "unpinned").map((e) => [e.kind, e.version, e.detail])).toEqual([
      ["pinned", 1, { latest: 2 }],
      ["unpinned", 3, { was: 1 }],
    ]);
  });

  it("hands out the pinned version on every path: skill_view, the installers' index and files, the export and skillgate pull's tree", async () => {
    await twoVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } });
    const exported = async (route: string) => {
      const { files } = await readTarGz(new Uint8Array(await (await t.call("GET", route)).arrayBuffer()), 1 << 20);
      return Buffer.from(files.find((file) => file.path === "release-notes/SKILL.md")!.content).toString("utf8");
    };
    for (const route of ["/api/v1/export", "/api/v1/learned-skills/export"]) {
      const skillMd = await exported(route);
      expect(skillMd.startsWith("---\nname: release-notes\ndescription: Writes release notes. Use when shipping.\n"), route).toBe(true);
      expect(skillMd.endsWith("---\n# v1\n"), route).toBe(true);
    }
    const index = await (await t.call("GET", "/.well-known/skills/index.json")).json();
    expect(index.skills.find((skill: { name: string }) => skill.name === "release-notes").description).toBe(
      "Writes release notes. Use when shipping.",
    );
    expect((await (await t.call("GET", "/.well-known/skills/release-notes/SKILL.md")).text()).endsWith("---\n# v1\n")).toBe(true);

    await t.call("DELETE", "/api/v1/skills/release-notes/pin");
    expect((await exported("/api/v1/export")).endsWith("---\n# v2\n")).toBe(true);
  });

  it("is a lead's: a write key cannot pin, a version that does not exist is not found, a built-in cannot be pinned", async () => {
    await twoVersions();
    const { key: writeKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "writer", scopes: ["write"] });
    expect((await t.call("POST", "/api/v1/skills/release-notes/pin", { key: writeKey, json: { version: 1 } })).status).toBe(403);
    const missing = await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 9 } });
    expect([missing.status, await errorOf(missing)]).toEqual([
      404,
      { code: "VersionNotFound", message: "Error [VersionNotFound]: 'release-notes' has no v9; it is at v2" },
    ]);
    const builtin = await t.call("POST", "/api/v1/skills/writing-plans/pin", { json: { version: 1 } });
    expect([builtin.status, (await errorOf(builtin)).code]).toEqual([403, "BuiltInImmutable"]);
    expect((await t.call("GET", "/api/v1/skills/release-notes")).headers.get("x-skill-version")).toBe("2");
  });
});
