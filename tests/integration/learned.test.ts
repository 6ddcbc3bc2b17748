import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/rows";
import { learnedSkills, learnedSkillVersions, skillEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";
import { readTarGz } from "@/lib/skills/tar-gz";

/** The files of an exported .tar.gz, path → bytes. */
async function unpack(res: Response): Promise<Map<string, Buffer>> {
  const { files } = await readTarGz(new Uint8Array(await res.arrayBuffer()), 1 << 24);
  return new Map(files.map((file) => [file.path, Buffer.from(file.content)]));
}

describe.each(testDbKinds)("learned skills on %s", (kind) => {
  const t = useTestApp(kind);
  let writeKey: string;
  // Every test starts with an agent's write key and one file skill, deploy-notes.
  beforeEach(async () => {
    writeKey = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "agent", scopes: ["write"] })).key;
    await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "deploy-notes/SKILL.md", content: skillMd("deploy-notes", "Deploy notes. Use when shipping.") }] },
    });
  });

  const create = (body: Record<string, unknown>, key = writeKey) => t.call("POST", "/api/v1/skills", { key, json: body });
  const skill = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    description: `Handles ${name}. Use when ${name} comes up.`,
    body: `# ${name}\n\n1. First step.\n`,
    ...extra,
  });
  /** Setup that must succeed. */
  const must = async (pending: Promise<Response>) => {
    const res = await pending;
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  };
  /**
   * release-flow as the tests that write it leave it: v1 drafted and promoted, v2 edited, v3
   * rolled back to v1; then v4 a new description, v5 and v6 new bodies.
   */
  const releaseFlowAt = async (version: 3 | 5 | 6) => {
    await must(create(skill("release-flow")));
    await must(t.call("POST", "/api/v1/skills/release-flow/promote"));
    await must(
      t.call("PUT", "/api/v1/skills/release-flow", {
        json: { body: "# release-flow\n\n1. Better step.\n", expectedVersion: 1, reason: "clearer" },
      }),
    );
    await must(t.call("POST", "/api/v1/skills/release-flow/rollback", { json: { toVersion: 1 } }));
    if (version === 3) return;
    await must(
      t.call("PUT", "/api/v1/skills/release-flow", { json: { description: "Ships releases. Use when releasing.", expectedVersion: 3 } }),
    );
    await must(t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "x", expectedVersion: 4 } }));
    if (version === 5) return;
    await must(t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "# v6\n", expectedVersion: 5 } }));
  };
  const createStraightIn = () => must(create(skill("straight-in", { status: "active" }), t.alpha.key));

  it("creates a draft by default, kept out of the listing and served as draft", async () => {
    const res = await create(skill("triage-notes", { reason: "after triaging five reports" }), writeKey);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: "triage-notes", version: 1, status: "draft" });
    expect(await (await t.call("GET", "/api/v1/listing")).text()).not.toContain("triage-notes");
    expect(await (await t.call("GET", "/api/v1/skills/triage-notes")).text()).toBe(
      "[skill triage-notes | draft | v1]\n# triage-notes\n\n1. First step.\n",
    );
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "triage-notes"));
    expect([row!.sourceKind, row!.reason]).toEqual(["agent", "after triaging five reports"]);
  });

  it("records the agent session as provenance and as the version's author", async () => {
    await t.call("POST", "/api/v1/skills", { key: writeKey, json: skill("session-skill"), headers: { "x-agent-session": "sess-9" } });
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "session-skill"));
    expect([row!.sourceKind, row!.sourceRef]).toEqual(["agent", "sess-9"]);
    const versions = (await (await t.call("GET", "/api/v1/skills/session-skill/versions")).json()).versions;
    expect(versions[0].author).toEqual({ kind: "key", keyId: expect.any(Number), keyName: "agent", session: "sess-9" });
  });

  it("lets only an admin key create a skill as active", async () => {
    const refused = await create(skill("straight-in", { status: "active" }), writeKey);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({
      code: "Forbidden",
      message: 'creating a skill with status "active" needs an editor, a lead or an admin key',
    });
    const made = await create(skill("straight-in", { status: "active" }), t.alpha.key);
    expect(await made.json()).toEqual({ name: "straight-in", version: 1, status: "active" });
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain("- straight-in: Handles straight-in.");
  });

  it("answers every precedence error of docs/learned-skills.md#errors-that-protect-precedence with its status and exact message", async () => {
    await must(create(skill("triage-notes")));
    const cases: [Promise<Response>, number, string, string][] = [
      [create(skill("writing-plans")), 409, "NameCollision", 'Error [NameCollision]: "writing-plans" is held by a builtin skill'],
      [create(skill("deploy-notes")), 409, "NameCollision", 'Error [NameCollision]: "deploy-notes" is held by a file skill'],
      [create(skill("triage-notes")), 409, "SkillExists", 'Error [SkillExists]: learned skill "triage-notes" already exists'],
      [
        t.call("PUT", "/api/v1/skills/writing-plans", { json: { body: "x", expectedVersion: 1 } }),
        403,
        "BuiltInImmutable",
        'Error [BuiltInImmutable]: "writing-plans" is a built-in skill',
      ],
      [
        t.call("DELETE", "/api/v1/skills/writing-plans"),
        403,
        "BuiltInImmutable",
        'Error [BuiltInImmutable]: "writing-plans" is a built-in skill',
      ],
      [
        t.call("PUT", "/api/v1/skills/deploy-notes", { json: { body: "x", expectedVersion: 1 } }),
        403,
        "FileSkillReadOnly",
        'Error [FileSkillReadOnly]: "deploy-notes" comes from skills/deploy-notes; change the file and sync',
      ],
      [
        t.call("DELETE", "/api/v1/skills/deploy-notes"),
        403,
        "FileSkillReadOnly",
        'Error [FileSkillReadOnly]: "deploy-notes" comes from skills/deploy-notes; change the file and sync',
      ],
      [
        t.call("PUT", "/api/v1/skills/triage-notes", { json: { body: "x", expectedVersion: 4 } }),
        409,
        "VersionConflict",
        'Error [VersionConflict]: "triage-notes" is at v1, not v4',
      ],
    ];
    for (const [pending, status, code, message] of cases) {
      const res = await pending;
      expect(res.status, message).toBe(status);
      expect(await errorOf(res)).toEqual({ code, message });
    }
  });

  it("runs the story: draft → promote → edit → stale edit refused → rollback", async () => {
    await create(skill("release-flow"));
    const refused = await t.call("POST", "/api/v1/skills/release-flow/promote", { key: writeKey });
    expect(await errorOf(refused)).toEqual({ code: "Forbidden", message: "promoting a draft needs an editor, a lead or an admin key" });
    const promoted = await t.call("POST", "/api/v1/skills/release-flow/promote");
    expect(await promoted.json()).toEqual({ name: "release-flow", version: 1, status: "active", served: { version: 1, why: "latest" } });
    expect(await errorOf(await t.call("POST", "/api/v1/skills/release-flow/promote"))).toEqual({
      code: "NotADraft",
      message: 'Error [NotADraft]: "release-flow" is already active',
    });

    const edited = await t.call("PUT", "/api/v1/skills/release-flow", {
      json: { body: "# release-flow\n\n1. Better step.\n", expectedVersion: 1, reason: "clearer" },
    });
    expect(await edited.json()).toEqual({ name: "release-flow", version: 2 });
    const stale = await t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "# stale\n", expectedVersion: 1 } });
    expect(stale.status).toBe(409);
    expect(await errorOf(stale)).toEqual({ code: "VersionConflict", message: 'Error [VersionConflict]: "release-flow" is at v2, not v1' });

    const diff = await t.call("GET", "/api/v1/skills/release-flow/diff?from=1&to=2");
    expect(await diff.text()).toBe(
      "--- release-flow@v1\n+++ release-flow@v2\n@@ -3,5 +3,5 @@\n description: Handles release-flow. Use when release-flow comes up.\n ---\n # release-flow\n \n-1. First step.\n+1. Better step.\n",
    );

    const rolled = await t.call("POST", "/api/v1/skills/release-flow/rollback", { json: { toVersion: 1 } });
    expect(await rolled.json()).toEqual({ name: "release-flow", version: 3, revertOf: 1, served: { version: 3, why: "latest" } });
    expect(await (await t.call("GET", "/api/v1/skills/release-flow")).text()).toBe(
      "[skill release-flow | learned | v3]\n# release-flow\n\n1. First step.\n",
    );
    const versions = (await (await t.call("GET", "/api/v1/skills/release-flow/versions")).json()).versions;
    expect(
      versions.map((v: { version: number; parentVersion: number | null; reason: string | null; revertOf: number | null }) => [
        v.version,
        v.parentVersion,
        v.reason,
        v.revertOf,
      ]),
    ).toEqual([
      [1, null, null, null],
      [2, 1, "clearer", null],
      [3, 2, "rollback to v1", 1],
    ]);
    expect(versions[2].sha256).toBe(versions[0].sha256);
    const kinds = await t.app.db
      .select({ kind: skillEvents.kind })
      .from(skillEvents)
      .where(eq(skillEvents.skillName, "release-flow"))
      .orderBy(skillEvents.id);
    expect(kinds.map((k) => k.kind)).toEqual(["created", "promoted", "edited", "rolled-back"]);
  });

  it("takes If-Match as a version number or as the ETag of the version loaded", async () => {
    await releaseFlowAt(3);
    const view = await t.call("GET", "/api/v1/skills/release-flow");
    const res = await t.call("PUT", "/api/v1/skills/release-flow", {
      json: { description: "Ships releases. Use when releasing." },
      headers: { "if-match": view.headers.get("etag")! },
    });
    expect(await res.json()).toEqual({ name: "release-flow", version: 4 });
    const stale = await t.call("PUT", "/api/v1/skills/release-flow", {
      json: { body: "x" },
      headers: { "if-match": view.headers.get("etag")! },
    });
    expect(await errorOf(stale)).toEqual({ code: "VersionConflict", message: 'Error [VersionConflict]: "release-flow" is at v4, not v3' });
    expect((await t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "x" }, headers: { "if-match": '"4"' } })).status).toBe(200);
    const missing = await t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "y" } });
    expect(await errorOf(missing)).toEqual({
      code: "InvalidField",
      message: "send expectedVersion (or an If-Match header): the version this change was made against",
    });
  });

  it("lets exactly one of many concurrent writers win; the losers' content is nowhere", async () => {
    await create(skill("contended", { status: "active" }), t.alpha.key);
    const writers = Array.from({ length: 12 }, (_, i) =>
      t.call("PUT", "/api/v1/skills/contended", { json: { body: `writer ${i} was here\n`, expectedVersion: 1 } }),
    );
    const results = await Promise.all(writers);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    const winner = statuses.indexOf(200);
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "contended"));
    const versions = await t.app.db.select().from(learnedSkillVersions).where(eq(learnedSkillVersions.skillId, row!.id));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    expect(versions.find((v) => v.version === 2)!.body).toBe(`writer ${winner} was here\n`);
    const everywhere = await t.app.db.execute(
      sql`select count(*)::int as n from learned_skill_versions where body like 'writer % was here%'`,
    );
    expect(rowsOf<{ n: number }>(everywhere)[0]!.n).toBe(1);
  });

  it("refuses to promote a draft whose name a file skill took after it was written", async () => {
    await create(skill("late-one"));
    await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "deploy-notes/SKILL.md", content: skillMd("deploy-notes", "Deploy notes. Use when shipping.") },
          { path: "late-one/SKILL.md", content: skillMd("late-one", "File late-one. Use when late.") },
        ],
      },
    });
    const res = await t.call("POST", "/api/v1/skills/late-one/promote");
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: "NameCollision", message: 'Error [NameCollision]: "late-one" is held by a file skill' });
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "late-one"));
    expect(row!.status).toBe("draft");
  });

  it("archives, hides and restores; a lead's (admin key's) power", async () => {
    await createStraightIn();
    expect(await (await t.call("DELETE", "/api/v1/skills/straight-in")).json()).toEqual({ name: "straight-in", status: "archived" });
    expect((await t.call("GET", "/api/v1/skills/straight-in")).status).toBe(404);
    expect(await (await t.call("GET", "/api/v1/listing")).text()).not.toContain("straight-in");
    const refused = await t.call("POST", "/api/v1/skills/straight-in/restore", { key: writeKey });
    expect(await errorOf(refused)).toEqual({ code: "Forbidden", message: "restoring an archived skill needs a lead or an admin key" });
    expect(await (await t.call("POST", "/api/v1/skills/straight-in/restore")).json()).toEqual({
      name: "straight-in",
      version: 1,
      status: "active",
    });
    expect(await (await t.call("GET", "/api/v1/skills/straight-in")).text()).toBe(
      "[skill straight-in | learned | v1]\n# straight-in\n\n1. First step.\n",
    );
  });

  it("forks any visible skill with forkedFrom, and the fork starts at v1", async () => {
    await releaseFlowAt(3);
    const res = await t.call("POST", "/api/v1/skills/systematic-debugging/fork", { key: writeKey, json: { name: "payments-debugging" } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      name: "payments-debugging",
      version: 1,
      status: "draft",
      forkedFrom: "alpha/systematic-debugging@v1",
    });
    const view = await (await t.call("GET", "/api/v1/skills/payments-debugging")).text();
    const original = await (await t.call("GET", "/api/v1/skills/systematic-debugging")).text();
    expect(view.slice(view.indexOf("\n"))).toBe(original.slice(original.indexOf("\n")));
    expect(await errorOf(await t.call("POST", "/api/v1/skills/release-flow/fork", { json: { name: "writing-plans" } }))).toEqual({
      code: "NameCollision",
      message: 'Error [NameCollision]: "writing-plans" is held by a builtin skill',
    });
  });

  it("marks a version verified only with a hostile review report; a new version starts unverified", async () => {
    await releaseFlowAt(5);
    const bare = await t.call("POST", "/api/v1/skills/release-flow/verify", { json: { tier: "verified" } });
    expect(bare.status).toBe(422);
    expect(await errorOf(bare)).toEqual({
      code: "ReviewRequired",
      message:
        'Error [ReviewRequired]: marking "release-flow" v5 verified needs a hostile review report: reviewer, attempts, findings and verdict, each filled in',
    });
    const partial = await t.call("POST", "/api/v1/skills/release-flow/verify", {
      json: { tier: "verified", report: { reviewer: "mallory", attempts: "", findings: "none", verdict: "holds" } },
    });
    expect(partial.status).toBe(422);
    const report = {
      reviewer: "mallory",
      attempts: ["skipped step 3", "ran on a dirty tree"],
      findings: "step 3 now says why",
      verdict: "holds",
    };
    const ok = await t.call("POST", "/api/v1/skills/release-flow/verify", { json: { tier: "verified", report } });
    expect(await ok.json()).toEqual({ name: "release-flow", version: 5, tier: "verified" });
    await t.call("PUT", "/api/v1/skills/release-flow", { json: { body: "# v6\n", expectedVersion: 5 } });
    const tiers = (await (await t.call("GET", "/api/v1/skills/release-flow/versions")).json()).versions.map(
      (v: { tier: string }) => v.tier,
    );
    expect(tiers.slice(-2)).toEqual(["verified", "unverified"]);
    expect((await t.call("POST", "/api/v1/skills/writing-plans/verify", { json: { tier: "reviewed" } })).status).toBe(403);
  });

  it("keeps one team's learned skills from another: 404 as if they did not exist", async () => {
    await releaseFlowAt(6);
    await must(create(skill("triage-notes")));
    await createStraightIn();
    const asBeta = { key: t.beta.key };
    const calls = [
      t.call("GET", "/api/v1/skills/release-flow", asBeta),
      t.call("PUT", "/api/v1/skills/release-flow", { ...asBeta, json: { body: "x", expectedVersion: 6 } }),
      t.call("DELETE", "/api/v1/skills/release-flow", asBeta),
      t.call("POST", "/api/v1/skills/triage-notes/promote", asBeta),
      t.call("POST", "/api/v1/skills/release-flow/rollback", { ...asBeta, json: { toVersion: 1 } }),
      t.call("POST", "/api/v1/skills/release-flow/fork", { ...asBeta, json: { name: "stolen" } }),
      t.call("POST", "/api/v1/skills/release-flow/verify", { ...asBeta, json: { tier: "reviewed" } }),
      t.call("GET", "/api/v1/skills/release-flow/versions", asBeta),
      t.call("GET", "/api/v1/skills/release-flow/diff?from=1&to=2", asBeta),
      t.call("POST", "/api/v1/skills/straight-in/restore", asBeta),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe("SkillNotFound");
    }
    const [row] = await t.app.db.select().from(learnedSkills).where(eq(learnedSkills.name, "release-flow"));
    expect(row!.currentVersion).toBe(6);
  });

  it("refuses bad names, sizes, types and bytes with a 4xx and writes nothing", async () => {
    await releaseFlowAt(6);
    const before = await t.app.db.$count(learnedSkills);
    const beforeVersions = await t.app.db.$count(learnedSkillVersions);
    const cases: [Record<string, unknown> | string, number, string][] = [
      [skill("Bad_Name"), 400, 'invalid skill: name "Bad_Name" may hold only lowercase letters, digits and hyphens'],
      [
        { ...skill("too-long"), description: "d".repeat(1025) },
        400,
        'invalid skill: description of "too-long" is 1025 characters; the limit is 1024',
      ],
      [{ ...skill("big-body"), body: "x".repeat(300 * 1024) }, 400, "invalid skill: SKILL.md is "],
      [{ ...skill("nul-body"), body: "a\u0000b" }, 400, 'field "body" holds a NUL character (\\u0000), which text cannot hold; remove it'],
      [{ ...skill("typed"), body: 42 }, 400, 'field "body": Invalid input: expected string, received number'],
      [{ ...skill("extra"), colour: "red" }, 400, 'unknown field "colour"; remove it'],
      [{ ...skill("bad-status"), status: "published" }, 400, 'field "status": Invalid option: expected one of "draft"|"active"'],
      [
        '{"name": "surrogate", "description": "x. Use when y.", "body": "\\udc00"}',
        400,
        'field "body" holds a lone UTF-16 surrogate (\\ud800–\\udfff); send valid Unicode',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res =
        typeof body === "string"
          ? await t.call("POST", "/api/v1/skills", { body, headers: { "content-type": "application/json" } })
          : await create(body, t.alpha.key);
      expect(res.status, message).toBe(status);
      expect((await errorOf(res)).message.startsWith(message), message).toBe(true);
    }
    expect((await t.call("PUT", "/api/v1/skills/release-flow", { json: { expectedVersion: 6 } })).status).toBe(400);
    expect((await t.call("POST", "/api/v1/skills/release-flow/rollback", { json: { toVersion: 0 } })).status).toBe(400);
    expect(await errorOf(await t.call("POST", "/api/v1/skills/release-flow/rollback", { json: { toVersion: 99 } }))).toEqual({
      code: "VersionNotFound",
      message: "Error [VersionNotFound]: 'release-flow' has no v99; it is at v6",
    });
    expect(await t.app.db.$count(learnedSkills)).toBe(before);
    expect(await t.app.db.$count(learnedSkillVersions)).toBe(beforeVersions);
  });

  it("exports learned skills as SKILL.md folders that import elsewhere byte for byte, provenance included", async () => {
    // One learned skill of each kind the tests above write.
    await must(create(skill("triage-notes", { reason: "after triaging five reports" })));
    await must(t.call("POST", "/api/v1/skills", { key: writeKey, json: skill("session-skill"), headers: { "x-agent-session": "sess-9" } }));
    await createStraightIn();
    await releaseFlowAt(6);
    await must(create(skill("contended", { status: "active" }), t.alpha.key));
    await must(t.call("PUT", "/api/v1/skills/contended", { json: { body: "writer 0 was here\n", expectedVersion: 1 } }));
    await must(create(skill("late-one")));
    await must(
      t.call("POST", "/api/v1/skills/sync", {
        json: {
          files: [
            { path: "deploy-notes/SKILL.md", content: skillMd("deploy-notes", "Deploy notes. Use when shipping.") },
            { path: "late-one/SKILL.md", content: skillMd("late-one", "File late-one. Use when late.") },
          ],
        },
      }),
    );
    await must(t.call("POST", "/api/v1/skills/systematic-debugging/fork", { key: writeKey, json: { name: "payments-debugging" } }));
    const exported = await t.call("GET", "/api/v1/learned-skills/export");
    expect(exported.headers.get("content-type")).toBe("application/gzip");
    const files = await unpack(exported);
    expect([...files.keys()].sort()).toEqual([
      "contended/SKILL.md",
      "late-one/SKILL.md",
      "payments-debugging/SKILL.md",
      "release-flow/SKILL.md",
      "session-skill/SKILL.md",
      "straight-in/SKILL.md",
      "triage-notes/SKILL.md",
    ]);
    const triage = files.get("triage-notes/SKILL.md")!.toString();
    expect(triage).toContain("  skillgate.source: agent\n");
    expect(triage).toContain("  skillgate.reason: after triaging five reports\n");
    expect(triage).toContain("  skillgate.status: draft\n");
    expect(files.get("payments-debugging/SKILL.md")!.toString()).toContain("skillgate.forked-from: alpha/systematic-debugging@v1");

    // late-one is a file skill in alpha, not in beta: beta takes every skill.
    const imported = await t.call("POST", "/api/v1/learned-skills/import?origin=alpha-export", {
      key: t.beta.key,
      body: new Uint8Array(await (await t.call("GET", "/api/v1/learned-skills/export")).arrayBuffer()),
      headers: { "content-type": "application/gzip" },
    });
    expect(imported.status).toBe(201);
    expect((await imported.json()).imported).toHaveLength(7);
    const again = await unpack(await t.call("GET", "/api/v1/learned-skills/export", { key: t.beta.key }));
    expect([...again.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [path, bytes] of files) expect(again.get(path)!.equals(bytes), path).toBe(true);
    expect(await (await t.call("GET", "/api/v1/skills/triage-notes", { key: t.beta.key })).text()).toBe(
      "[skill triage-notes | draft | v1]\n# triage-notes\n\n1. First step.\n",
    );
  });

  it("imports all or nothing", async () => {
    await must(create(skill("triage-notes"), t.beta.key));
    const before = await t.app.db.$count(learnedSkills);
    const res = await t.call("POST", "/api/v1/learned-skills/import", {
      key: t.beta.key,
      json: {
        files: [
          { path: "fresh-one/SKILL.md", content: skillMd("fresh-one", "Fresh. Use when fresh.") },
          { path: "triage-notes/SKILL.md", content: skillMd("triage-notes", "Dup. Use when dup.") },
        ],
      },
    });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({
      code: "SkillExists",
      message: 'Error [SkillExists]: learned skill "triage-notes" already exists',
    });
    expect(await t.app.db.$count(learnedSkills)).toBe(before);
  });
});
