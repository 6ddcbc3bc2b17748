import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { amendments, learnedSkills, ledgerRecords, observations, skillEvents, skillViews, workspaceSkillFiles } from "@/db/schema";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/** Issue 10: every request is answered by the contract — never a 500, never a half write. */

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(testDbKinds)("hostile input on %s", (kind) => {
  const t = useTestApp(kind);
  // Every test starts with one active learned skill to aim at.
  beforeEach(async () => {
    const res = await t.call("POST", "/api/v1/skills", {
      json: { name: "target", description: "Target. Use when testing.", body: "# Target\n", status: "active" },
    });
    expect(res.status).toBe(201);
  });

  it("refuses JSON nested deeper than 64 levels on every JSON route, before parsing it", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const inField = `{"name":"x","description":"d","body":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const message = "request body nests arrays and objects more than 64 levels deep; send a flatter body";
    for (const [path, body] of [
      ["/api/v1/lint", deep],
      ["/api/v1/skills", inField],
      ["/api/v1/observations", deep],
      ["/api/v1/usage/views", deep],
      ["/api/v1/ledger/deep", deep],
      ["/api/v1/skills/sync", deep],
    ] as const) {
      const res = await t.call("POST", path, { body, headers: { "content-type": "application/json" } });
      expect(res.status, path).toBe(400);
      expect(await errorOf(res), path).toEqual({ code: "InvalidJson", message });
    }
    // 64 levels are fine: the limit is a limit, not a ban on nesting.
    const ok = await t.call("POST", "/api/v1/lint", {
      body: `{"description":"d","x":${"[".repeat(63)}${"]".repeat(63)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(await errorOf(ok)).toEqual({ code: "InvalidField", message: 'unknown field "x"; remove it' });
  });

  it("refuses a NUL in any text field with a 400 naming the field, and writes nothing", async () => {
    const nul = (field: string) => ({
      code: "InvalidField",
      message: `field "${field}" holds a NUL character (\\u0000), which text cannot hold; remove it`,
    });
    const counts = async () => [
      await t.app.db.$count(learnedSkills),
      await t.app.db.$count(observations),
      await t.app.db.$count(amendments),
      await t.app.db.$count(ledgerRecords),
    ];
    const before = await counts();
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/v1/skills", { name: "nul-skill", description: "Bad\u0000. Use when testing.", body: "# x\n" }, "description"],
      [
        "POST",
        "/api/v1/skills",
        { name: "nul-skill", description: "Fine. Use when testing.", body: "# x\n", reason: "a\u0000b" },
        "reason",
      ],
      ["POST", "/api/v1/observations", { skill: "target", task: "t\u0000", category: "c", outcome: "success" }, "task"],
      [
        "POST",
        "/api/v1/observations",
        { observations: [{ skill: "target", task: "t", category: "c", outcome: "failure", feedback: "\u0000" }] },
        "observations.0.feedback",
      ],
      ["POST", "/api/v1/skills/target/amendments", { body: "# better\n", rationale: "because\u0000" }, "rationale"],
      ["POST", "/api/v1/ledger/nul-plan", { action: "record-hypothesis", text: "x\u0000y" }, "text"],
      ["POST", "/api/v1/usage/views", { skill: "target", sessionId: "x\u0000y" }, "sessionId"],
      ["PUT", "/api/v1/skills/target", { body: "# x\u0000\n", expectedVersion: 1 }, "body"],
    ];
    for (const [method, path, json, field] of cases) {
      const res = await t.call(method, path, { json });
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(await errorOf(res)).toEqual(nul(field));
    }
    const query = await t.call("GET", "/api/v1/skills/target/observations?category=a%00b");
    expect(await errorOf(query)).toEqual({ code: "InvalidQuery", message: 'field "category": holds a NUL character (%00); remove it' });
    expect(await counts()).toEqual(before);
    await t.app.views.flush();
    expect(await t.app.db.$count(skillViews)).toBe(0);
  });

  it("reads a YAML alias bomb in a SKILL.md as an invalid folder, not a stalled or crashed server", async () => {
    const levels = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const yaml = levels
      .map(
        (level, i) =>
          `${level}: &${level} [${
            i === 0
              ? '"lol","lol","lol","lol","lol","lol","lol","lol","lol"'
              : Array(9)
                  .fill(`*${levels[i - 1]}`)
                  .join(",")
          }]`,
      )
      .join("\n");
    const files = [{ path: "bomb/SKILL.md", content: `---\nname: bomb\ndescription: Bomb. Use when testing.\n${yaml}\n---\nbody\n` }];
    const why =
      "the frontmatter of bomb/SKILL.md cannot be read: Excessive alias count indicates a resource exhaustion attack; write the values out instead of repeating aliases";
    const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
    expect(res.status).toBe(200);
    expect((await res.json()).invalid).toEqual([{ folder: "bomb", errors: [why] }]);
    const strict = await t.call("POST", "/api/v1/skills/sync?strict=true", { json: { files } });
    expect(strict.status).toBe(400);
    expect(await errorOf(strict)).toEqual({
      code: "InvalidSkill",
      message: `invalid skill: 1 folder(s) break hard rules, so nothing changed:\n[invalid] bomb: ${why}`,
    });
  });

  it("accepts a binary file just under 5 MiB sent base64 in JSON, and gives back the same bytes", async () => {
    const binary = Buffer.alloc(5 * 1024 * 1024 - 1);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 2654435761) >>> 24;
    const files = [
      { path: "fonts/SKILL.md", content: skillMd("fonts", "Ships a font. Use when typesetting.") },
      { path: "fonts/assets/font.bin", content: binary.toString("base64"), encoding: "base64" },
    ];
    const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
    expect(res.status).toBe(200);
    const back = await t.call("GET", "/api/v1/skills/fonts/files/assets/font.bin");
    expect(back.status).toBe(200);
    expect(sha256(new Uint8Array(await back.arrayBuffer()))).toBe(sha256(binary));
  });

  it("syncs a folder of 11,000 files (more parameters than one SQL statement takes)", async () => {
    const files = [{ path: "many/SKILL.md", content: skillMd("many", "Holds many files. Use when testing scale.") }];
    for (let i = 0; i < 11_000; i++) files.push({ path: `many/data/${String(i).padStart(5, "0")}.txt`, content: `file ${i}\n` });
    const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
    expect(res.status).toBe(200);
    const stored = await t.app.db.$count(
      workspaceSkillFiles,
      and(eq(workspaceSkillFiles.teamId, t.alpha.team.id), eq(workspaceSkillFiles.name, "many")),
    );
    expect(stored).toBe(11_000);
    const one = await t.call("GET", "/api/v1/skills/many/files/data/10999.txt");
    expect(await one.text()).toBe("file 10999\n");
    // Removing the folder again removes all 11,000 rows.
    const empty = await t.call("POST", "/api/v1/skills/sync?allowEmpty=true", { json: { files: [] } });
    expect((await empty.json()).changes.removed).toEqual(["many"]);
    expect(await t.app.db.$count(workspaceSkillFiles, eq(workspaceSkillFiles.teamId, t.alpha.team.id))).toBe(0);
  });

  it("refuses a tree where one path is both a file and a folder, and changes nothing", async () => {
    await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "kept/SKILL.md", content: skillMd("kept", "Kept. Use when testing.") }] },
    });
    const files = [
      { path: "x/SKILL.md", content: skillMd("x", "X. Use when testing.") },
      { path: "x/a", content: "a file" },
      { path: "x/a/b", content: "a file inside the file" },
    ];
    const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: "InvalidPath",
      message: 'invalid path: "x/a" is a file, and "x/a/b" puts a file inside it; a path is a file or a folder, not both',
    });
    expect((await t.call("GET", "/api/v1/skills/kept")).status).toBe(200);
    expect((await t.call("GET", "/api/v1/skills/x")).status).toBe(404);
  });

  it("answers unknown /api paths with the envelope's 404, and wrong methods with a 405 that says what is allowed", async () => {
    const unknown = await t.call("GET", "/api/v2/skills");
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toEqual({
      code: "NotFound",
      message: "no route GET /api/v2/skills; the routes are described at /api/v1/openapi.json",
    });
    const deep = await t.call("POST", "/api/v1/skills/target/nothing-here");
    expect(await errorOf(deep)).toEqual({
      code: "NotFound",
      message: "no route POST /api/v1/skills/target/nothing-here; the routes are described at /api/v1/openapi.json",
    });
    const wrong = await t.call("PATCH", "/api/v1/listing");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await errorOf(wrong)).toEqual({
      code: "MethodNotAllowed",
      message: "PATCH is not allowed here; this route answers GET, HEAD, OPTIONS",
    });
    const put = await t.call("PUT", "/api/v1/skills");
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    const options = await t.call("OPTIONS", "/api/v1/skills/target");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE, OPTIONS");
  });
});

describe.each(testDbKinds)("one state change at a time on %s", (kind) => {
  const t = useTestApp(kind);

  const create = (name: string) =>
    t.call("POST", "/api/v1/skills", { json: { name, description: `${name}. Use when racing.`, body: `# ${name}\n`, status: "active" } });
  const events = (name: string, kind: string) =>
    t.app.db.$count(
      skillEvents,
      and(eq(skillEvents.teamId, t.alpha.team.id), eq(skillEvents.skillName, name), eq(skillEvents.kind, kind as "archived")),
    );
  const statuses = async (responses: Response[]) => responses.map((res) => res.status).sort((a, b) => a - b);

  it("archives once when 16 deletes race: one 200, fifteen clear 409s, one event", async () => {
    await create("raced-delete");
    const results = await Promise.all(Array.from({ length: 16 }, () => t.call("DELETE", "/api/v1/skills/raced-delete")));
    expect(await statuses(results)).toEqual([200, ...Array(15).fill(409)]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(await errorOf(res)).toEqual({
        code: "AlreadyArchived",
        message: 'Error [AlreadyArchived]: "raced-delete" is archived; a lead can restore it',
      });
    }
    expect(await events("raced-delete", "archived")).toBe(1);
    // A delete after the race is the same conflict: the outcome does not depend on timing.
    expect(await errorOf(await t.call("DELETE", "/api/v1/skills/raced-delete"))).toMatchObject({ code: "AlreadyArchived" });
  });

  it("restores once when 16 restores race", async () => {
    await create("raced-delete");
    expect((await t.call("DELETE", "/api/v1/skills/raced-delete")).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 16 }, () => t.call("POST", "/api/v1/skills/raced-delete/restore")));
    expect(await statuses(results)).toEqual([200, ...Array(15).fill(409)]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(await errorOf(res)).toEqual({
        code: "SkillExists",
        message: 'Error [SkillExists]: learned skill "raced-delete" already exists',
      });
    }
    expect(await events("raced-delete", "restored")).toBe(1);
    const rows = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "raced-delete"));
    expect(rows.map((row) => row.status)).toEqual(["active"]);
  });

  it("rolls back once when 16 rollbacks to one version race: one new version, fifteen answers that nothing changed", async () => {
    await create("raced-rollback");
    await t.call("PUT", "/api/v1/skills/raced-rollback", { json: { body: "# v2\n", expectedVersion: 1 } });
    const results = await Promise.all(
      Array.from({ length: 16 }, () => t.call("POST", "/api/v1/skills/raced-rollback/rollback", { json: { toVersion: 1 } })),
    );
    expect(await statuses(results)).toEqual(Array(16).fill(200));
    const bodies = await Promise.all(results.map((res) => res.json()));
    const served = { version: 3, why: "latest" };
    expect(bodies.filter((body) => "revertOf" in body)).toEqual([{ name: "raced-rollback", version: 3, revertOf: 1, served }]);
    expect(bodies.filter((body) => "unchanged" in body)).toEqual(
      Array(15).fill({ name: "raced-rollback", version: 3, unchanged: true, served }),
    );
    expect(await events("raced-rollback", "rolled-back")).toBe(1);
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "raced-rollback"));
    expect(row!.currentVersion).toBe(3);
    expect(await (await t.call("GET", "/api/v1/skills/raced-rollback")).text()).toBe(
      "[skill raced-rollback | learned | v3]\n# raced-rollback\n",
    );
  });

  it("refuses a rollback decided on a version that is no longer the latest, and changes nothing", async () => {
    await create("stale-rollback");
    await t.call("PUT", "/api/v1/skills/stale-rollback", { json: { body: "# v2\n", expectedVersion: 1 } });
    const stale = await t.call("POST", "/api/v1/skills/stale-rollback/rollback", { json: { toVersion: 1, expectedVersion: 1 } });
    expect([stale.status, await errorOf(stale)]).toEqual([
      409,
      { code: "VersionConflict", message: 'Error [VersionConflict]: "stale-rollback" is at v2, not v1' },
    ]);
    expect(await events("stale-rollback", "rolled-back")).toBe(0);
    const current = await t.call("POST", "/api/v1/skills/stale-rollback/rollback", { json: { toVersion: 1, expectedVersion: 2 } });
    const served = { version: 3, why: "latest" };
    expect(await current.json()).toEqual({ name: "stale-rollback", version: 3, revertOf: 1, served });
    // The same request again (a retry, a double click) finds it done: no conflict, nothing new.
    const retried = await t.call("POST", "/api/v1/skills/stale-rollback/rollback", { json: { toVersion: 1, expectedVersion: 2 } });
    expect([retried.status, await retried.json()]).toEqual([200, { name: "stale-rollback", version: 3, unchanged: true, served }]);
    expect(await events("stale-rollback", "rolled-back")).toBe(1);
  });

  it("promotes a draft once when 16 promotions race", async () => {
    await t.call("POST", "/api/v1/skills", { json: { name: "raced-draft", description: "Draft. Use when racing.", body: "# d\n" } });
    const results = await Promise.all(Array.from({ length: 16 }, () => t.call("POST", "/api/v1/skills/raced-draft/promote")));
    expect(await statuses(results)).toEqual([200, ...Array(15).fill(409)]);
    expect(await errorOf(results.find((r) => r.status === 409)!)).toEqual({
      code: "NotADraft",
      message: 'Error [NotADraft]: "raced-draft" is already active',
    });
    expect(await events("raced-draft", "promoted")).toBe(1);
  });

  it("promotes an amendment once when 8 promotions race", async () => {
    await create("raced-amendment");
    const amendment = await (
      await t.call("POST", "/api/v1/skills/raced-amendment/amendments", { json: { body: "# better\n", rationale: "clearer" } })
    ).json();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call("POST", `/api/v1/amendments/${amendment.id}/promote`, { json: { reason: "the lead read it" } }),
      ),
    );
    expect(await statuses(results)).toEqual([200, ...Array(7).fill(409)]);
    expect(await errorOf(results.find((r) => r.status === 409)!)).toEqual({
      code: "AmendmentStateChanged",
      message: `Error [AmendmentStateChanged]: amendment #${amendment.id} is promoted; promoting it needs it pending, evaluated or rejected`,
    });
    expect(await events("raced-amendment", "overridden")).toBe(1);
    expect(await (await t.call("GET", "/api/v1/skills/raced-amendment")).text()).toBe("[skill raced-amendment | learned | v2]\n# better\n");
  });
});
