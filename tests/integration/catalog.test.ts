import { createHash } from "node:crypto";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { skillViews, workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { createLearned } from "@/lib/learned/write";
import { FIXTURES, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

const HEADER = "[skills listing — prefer a matching skill over improvising; load bodies with skill_view]";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(testDbKinds)("the catalog on %s", (kind) => {
  const t = useTestApp(kind, { globalSkillsDir: path.join(FIXTURES, "global-skills") });

  type File = { path: string; content: string; encoding?: string; executable?: boolean };
  const sync = (files: File[], key?: string) => t.call("POST", "/api/v1/skills/sync", { json: { files }, key });
  /** Setup for a test: a sync that must succeed. */
  const syncOk = async (files: File[]) => {
    const res = await sync(files);
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const deployNotes = (body = "Body\n") => skillMd("deploy-notes", "Writes deploy notes. Use when shipping.", body, "argument-hint: x\n");
  /**
   * A workspace with deploy-notes (v1, with a script), and two folders that a global and a
   * built-in skill shadow: what "syncs a workspace tree" writes.
   */
  const FIRST_TREE = [
    { path: "ci-green-gate/SKILL.md", content: skillMd("ci-green-gate", "Keeps CI green before merge. Use when CI is red.") },
    { path: "systematic-debugging/SKILL.md", content: skillMd("systematic-debugging", "Team debugging. Use when stuck.") },
    { path: "deploy-notes/SKILL.md", content: deployNotes() },
    { path: "deploy-notes/scripts/run.sh", content: "#!/bin/sh\necho hi\n" },
  ];
  const CRLF_BODY = "# Title  \r\n\r\n\tindented\u00a0—  emoji 😀 \r\nlast line without newline   ";
  /** crlf-skill v1 as "returns the body byte for byte" writes it, CRLF line ends and all. */
  const CRLF_V1 = {
    path: "crlf-skill/SKILL.md",
    content: `---\r\nname: crlf-skill\r\ndescription: Keeps bytes. Use when testing.\r\n---\r\n${CRLF_BODY}`,
  };
  /** crlf-skill v2, as "bumps a version only when…" writes it. */
  const CRLF_V2 = { path: "crlf-skill/SKILL.md", content: skillMd("crlf-skill", "Keeps bytes. Use when testing.") };

  it("lists the built-in and global skills of a team that has synced nothing", async () => {
    const res = await t.call("GET", "/api/v1/listing");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    const lines = text.split("\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines[1]).toBe("## Built-in");
    expect(lines.slice(2, 9).map((line) => line.split(":")[0])).toEqual([
      "- experiment-driven-development",
      "- finishing-a-branch",
      "- scientific-method",
      "- systematic-debugging",
      "- test-driven-development",
      "- verification-before-completion",
      "- writing-plans",
    ]);
    expect(lines[5]).toBe("- systematic-debugging: Finds root causes before fixing symptoms: reproduce, isolate…");
    expect(lines.slice(9)).toEqual([
      "## Global directory skills",
      "- chrome-devtools-cli: Drives Chrome DevTools from shell scripts. Use when debuggin…",
      "- ci-green-gate: Company-wide CI rules. Use when CI is red on a main branch.",
    ]);
    expect(res.headers.get("x-skills-total")).toBe("9");
    expect(res.headers.get("x-skills-shown")).toBe("9");
    expect(res.headers.get("x-skills-dropped-descriptions")).toBe("0");
    expect(res.headers.get("x-skills-dropped-entries")).toBe("0");
    expect(res.headers.get("x-listing-chars")).toBe(String([...text].length));
    expect(res.headers.get("x-listing-cap")).toBe("8000");
    expect(res.headers.get("etag")).toBe(`"${sha256(text)}"`);
  });

  it("reports a global folder that cannot be served, and never lists it", async () => {
    const body = await (await t.call("GET", "/api/v1/skills")).json();
    expect(body.diagnostics).toContain(
      '[invalid] global/broken-one: name "Broken_One" may hold only lowercase letters, digits and hyphens',
    );
    expect(body.skills.filter((s: { status: string }) => s.status === "invalid")).toEqual([
      {
        name: "broken-one",
        source: "file",
        scope: "global",
        version: null,
        description: "",
        status: "invalid",
        folder: "global/broken-one",
        errors: ['name "Broken_One" may hold only lowercase letters, digits and hyphens'],
      },
    ]);
    expect(await (await t.call("GET", "/api/v1/listing")).text()).not.toContain("roken");
  });

  it("syncs a workspace tree, shadows by precedence and reports collisions in the exact form", async () => {
    const res = await sync(FIRST_TREE);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.changes).toEqual({
      added: ["ci-green-gate", "deploy-notes", "systematic-debugging"],
      updated: [],
      unchanged: [],
      removed: [],
    });
    expect(body.diagnostics).toEqual([
      "[collision] ci-green-gate (file skills/ci-green-gate) shadowed by file global/ci-green-gate",
      "[collision] systematic-debugging (file skills/systematic-debugging) shadowed by builtin",
      '[invalid] global/broken-one: name "Broken_One" may hold only lowercase letters, digits and hyphens',
      '[warning] deploy-notes: frontmatter field "argument-hint" is not in the Agent Skills spec (kept)',
    ]);
    const byKey = Object.fromEntries(body.skills.map((s: { name: string; status: string }) => [`${s.name}/${s.status}`, s]));
    expect(byKey["deploy-notes/active"]).toEqual({
      name: "deploy-notes",
      source: "file",
      scope: "workspace",
      version: 1,
      description: "Writes deploy notes. Use when shipping.",
      status: "active",
      folder: "skills/deploy-notes",
      served: { version: 1, why: "latest" },
    });
    expect(byKey["ci-green-gate/shadowed"]).toMatchObject({ source: "file", scope: "workspace", folder: "skills/ci-green-gate" });
    expect(byKey["ci-green-gate/active"]).toMatchObject({ source: "file", scope: "global", folder: "global/ci-green-gate" });
    expect(byKey["systematic-debugging/shadowed"]).toMatchObject({ scope: "workspace" });
    expect(byKey["systematic-debugging/active"]).toMatchObject({ source: "builtin", scope: "builtin", folder: null, version: 1 });
  });

  it("ends the listing with the collision lines and leaves shadowed skills out", async () => {
    await syncOk(FIRST_TREE);
    const text = await (await t.call("GET", "/api/v1/listing")).text();
    expect(
      text.endsWith(
        "## Workspace directory skills\n- deploy-notes: Writes deploy notes. Use when shipping.\n" +
          "[collision] ci-green-gate (file skills/ci-green-gate) shadowed by file global/ci-green-gate\n" +
          "[collision] systematic-debugging (file skills/systematic-debugging) shadowed by builtin",
      ),
    ).toBe(true);
    expect(text).not.toContain("Team debugging");
  });

  it("serves skill_view with the exact annotation for each source", async () => {
    await syncOk(FIRST_TREE);
    const builtin = await t.call("GET", "/api/v1/skills/systematic-debugging");
    expect(builtin.status).toBe(200);
    const builtinText = await builtin.text();
    expect(builtinText.split("\n")[0]).toBe("[skill systematic-debugging | builtin | v1]");
    expect(builtinText.split("\n")[1]).toBe("# Systematic debugging");

    const global = await (await t.call("GET", "/api/v1/skills/chrome-devtools-cli")).text();
    expect(global).toBe("[skill chrome-devtools-cli | file | v3 | global/chrome-devtools-cli]\nGlobal body.\n");

    const file = await t.call("GET", "/api/v1/skills/deploy-notes");
    expect(await file.text()).toBe("[skill deploy-notes | file | v1 | skills/deploy-notes]\nBody\n");
    expect(file.headers.get("etag")).toBe(
      `"${sha256(skillMd("deploy-notes", "Writes deploy notes. Use when shipping.", "Body\n", "argument-hint: x\n"))}"`,
    );
    expect(file.headers.get("x-skill-version")).toBe("1");
  });

  it("answers 304 to If-None-Match with the current ETag", async () => {
    await syncOk(FIRST_TREE);
    const first = await t.call("GET", "/api/v1/skills/deploy-notes");
    const again = await t.call("GET", "/api/v1/skills/deploy-notes", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("returns the body byte for byte: CRLF, trailing spaces, tabs, Unicode and no final newline", async () => {
    await syncOk(FIRST_TREE);
    const res = await sync([
      {
        path: "deploy-notes/SKILL.md",
        content: skillMd("deploy-notes", "Writes deploy notes. Use when shipping.", "Body\n", "argument-hint: x\n"),
      },
      { path: "deploy-notes/scripts/run.sh", content: "#!/bin/sh\necho hi\n" },
      CRLF_V1,
    ]);
    expect(res.status).toBe(200);
    expect((await res.json()).changes).toEqual({
      added: ["crlf-skill"],
      updated: [],
      unchanged: ["deploy-notes"],
      removed: ["ci-green-gate", "systematic-debugging"],
    });
    const view = await t.call("GET", "/api/v1/skills/crlf-skill");
    const bytes = Buffer.from(await view.arrayBuffer());
    expect(bytes.equals(Buffer.from(`[skill crlf-skill | file | v1 | skills/crlf-skill]\n${CRLF_BODY}`, "utf8"))).toBe(true);
  });

  it("bumps a version only when the folder's content changed, supporting files included, and keeps old versions", async () => {
    // deploy-notes v1 with its script, and crlf-skill v1.
    await syncOk([
      { path: "deploy-notes/SKILL.md", content: deployNotes() },
      { path: "deploy-notes/scripts/run.sh", content: "#!/bin/sh\necho hi\n" },
      CRLF_V1,
    ]);
    const base = skillMd("deploy-notes", "Writes deploy notes. Use when shipping.", "Body\n", "argument-hint: x\n");
    const crlf = { path: "crlf-skill/SKILL.md", content: skillMd("crlf-skill", "Keeps bytes. Use when testing.") };
    let res = await sync([
      { path: "deploy-notes/SKILL.md", content: base },
      { path: "deploy-notes/scripts/run.sh", content: "#!/bin/sh\necho changed\n" },
      crlf,
    ]);
    expect((await res.json()).changes).toMatchObject({ updated: ["crlf-skill", "deploy-notes"] });
    res = await sync([
      { path: "deploy-notes/SKILL.md", content: base.replace("Body", "Body v3") },
      { path: "deploy-notes/scripts/run.sh", content: "#!/bin/sh\necho changed\n" },
      crlf,
    ]);
    expect((await res.json()).changes).toEqual({ added: [], updated: ["deploy-notes"], unchanged: ["crlf-skill"], removed: [] });
    expect(await (await t.call("GET", "/api/v1/skills/deploy-notes")).text()).toBe(
      "[skill deploy-notes | file | v3 | skills/deploy-notes]\nBody v3\n",
    );
    expect(await (await t.call("GET", "/api/v1/skills/deploy-notes?version=1")).text()).toBe(
      "[skill deploy-notes | file | v1 | skills/deploy-notes]\nBody\n",
    );
    const missing = await t.call("GET", "/api/v1/skills/deploy-notes?version=9");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toEqual({
      code: "VersionNotFound",
      message: "Error [VersionNotFound]: 'deploy-notes' has no v9; it is at v3",
    });
    const rows = await t.app.db.select().from(workspaceSkills).where(eq(workspaceSkills.teamId, t.alpha.team.id));
    expect(rows.map((r) => [r.name, r.currentVersion]).sort()).toEqual([
      ["crlf-skill", 2],
      ["deploy-notes", 3],
    ]);
  });

  it("continues a removed folder's numbering when it comes back", async () => {
    const crlf = { path: "crlf-skill/SKILL.md", content: skillMd("crlf-skill", "Keeps bytes. Use when testing.") };
    // deploy-notes at v3.
    for (const body of ["Body\n", "Body v2\n", "Body v3\n"])
      await syncOk([crlf, { path: "deploy-notes/SKILL.md", content: deployNotes(body) }]);
    expect((await sync([crlf])).status).toBe(200);
    expect((await t.call("GET", "/api/v1/skills/deploy-notes")).status).toBe(404);
    await sync([crlf, { path: "deploy-notes/SKILL.md", content: skillMd("deploy-notes", "Back again. Use when shipping.") }]);
    expect((await t.call("GET", "/api/v1/skills/deploy-notes")).headers.get("x-skill-version")).toBe("4");
  });

  it("answers SkillNotFound with the exact message", async () => {
    const res = await t.call("GET", "/api/v1/skills/no-such-skill");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        code: "SkillNotFound",
        message: "Error [SkillNotFound]: No skill named 'no-such-skill'. Use skill_list to see available skills.",
      },
    });
  });

  it("records every view with its key and X-Agent-Session, written in a batch", async () => {
    // crlf-skill at v2.
    await syncOk([CRLF_V1]);
    await syncOk([CRLF_V2]);
    const before = t.app.views.pending;
    await t.call("GET", "/api/v1/skills/crlf-skill", { headers: { "x-agent-session": "session-42" } });
    await t.call("GET", "/api/v1/skills/writing-plans");
    expect(t.app.views.pending).toBe(before + 2);
    await t.app.views.flush();
    const rows = await t.app.db
      .select()
      .from(skillViews)
      .where(and(eq(skillViews.teamId, t.alpha.team.id), eq(skillViews.sessionId, "session-42")));
    expect(rows.map((r) => [r.skillName, r.source, r.version])).toEqual([["crlf-skill", "file", 2]]);
    expect(rows[0]!.keyId).not.toBeNull();
  });

  it("serves supporting files byte for byte, binary included, and refuses paths that leave the folder", async () => {
    const binary = Buffer.from([0, 1, 2, 255, 254, 0x80, 10, 13]);
    await syncOk([
      { path: "asset-skill/SKILL.md", content: skillMd("asset-skill", "Ships assets. Use when testing files.") },
      { path: "asset-skill/assets/blob.bin", content: binary.toString("base64"), encoding: "base64" },
      { path: "asset-skill/references/guide.md", content: "# Guide\n" },
      { path: "asset-skill/scripts/run.sh", content: "#!/bin/sh\n", executable: true },
    ]);
    const list = await (await t.call("GET", "/api/v1/skills/asset-skill/files")).json();
    expect(list).toEqual({
      name: "asset-skill",
      files: [
        { path: "assets/blob.bin", size: 8, executable: false },
        { path: "references/guide.md", size: 8, executable: false },
        { path: "scripts/run.sh", size: 10, executable: true },
      ],
    });
    const file = await t.call("GET", "/api/v1/skills/asset-skill/files/assets/blob.bin");
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(binary)).toBe(true);
    for (const bad of [
      "..%2F..%2Fetc%2Fpasswd",
      "assets/..%2F..%2FSKILL.md",
      "assets%2F%2E%2E%2F%2E%2E%2Fx",
      "assets/%252e%252e/x",
      "%2Fetc%2Fpasswd",
    ]) {
      const res = await t.call("GET", `/api/v1/skills/asset-skill/files/${bad}`);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.code).toBe("InvalidPath");
    }
    const missing = await t.call("GET", "/api/v1/skills/asset-skill/files/nope.txt");
    expect(missing.status).toBe(404);
    const builtinFiles = await (await t.call("GET", "/api/v1/skills/writing-plans/files")).json();
    expect(builtinFiles).toEqual({ name: "writing-plans", files: [] });
  });

  it("takes the tree as a gzip'd tar too", async () => {
    const { pack } = await import("tar-stream");
    const { gzipSync } = await import("node:zlib");
    const tar = pack();
    tar.entry({ name: "tar-skill/SKILL.md" }, skillMd("tar-skill", "Arrives as tar. Use when testing tar."));
    tar.entry({ name: "tar-skill/scripts/x.sh" }, "echo tar\n");
    tar.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of tar) chunks.push(chunk as Buffer);
    const res = await t.call("POST", "/api/v1/skills/sync", {
      body: gzipSync(Buffer.concat(chunks)),
      headers: { "content-type": "application/gzip" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).changes.added).toEqual(["tar-skill"]);
    expect(await (await t.call("GET", "/api/v1/skills/tar-skill/files/scripts/x.sh")).text()).toBe("echo tar\n");
  });

  it("lints a skill's description and any text, exactly", async () => {
    await sync([{ path: "sloppy/SKILL.md", content: skillMd("sloppy", "This skill helps you write things.") }]);
    const named = await t.call("GET", "/api/v1/skills/sloppy/lint");
    expect(named.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await named.text()).toBe(
      [
        "[lint] WhatAndWhen: Say what it does AND when to use it (add a 'use when ...' clause)",
        '[lint] ThirdPerson: Write in third person: "Finds root causes ...", not "I can help you ..."',
        "[lint] FrontLoad: Front-load the key terms: start with what it does, not a boilerplate opener",
      ].join("\n"),
    );
    expect(await (await t.call("GET", "/api/v1/skills/writing-plans/lint")).text()).toBe("[lint] clean");
    const posted = await t.call("POST", "/api/v1/lint", { json: { description: "   " } });
    expect(await posted.text()).toBe("[lint] Empty: Description is empty.");
  });

  it("gives every built-in skill a description that passes lint", async () => {
    for (const name of [
      "scientific-method",
      "systematic-debugging",
      "writing-plans",
      "experiment-driven-development",
      "test-driven-development",
      "verification-before-completion",
      "finishing-a-branch",
    ]) {
      expect(await (await t.call("GET", `/api/v1/skills/${name}/lint`)).text(), name).toBe("[lint] clean");
    }
  });

  it("keeps the catalog of one team away from another: 404 exactly as if it did not exist", async () => {
    // Alpha has each skill and file that beta asks for below.
    await syncOk([
      CRLF_V2,
      { path: "asset-skill/SKILL.md", content: skillMd("asset-skill", "Ships assets. Use when testing files.") },
      { path: "asset-skill/assets/blob.bin", content: Buffer.from([0, 1, 2, 255]).toString("base64"), encoding: "base64" },
      { path: "sloppy/SKILL.md", content: skillMd("sloppy", "This skill helps you write things.") },
    ]);
    expect((await t.call("GET", "/api/v1/skills/asset-skill/files/assets/blob.bin")).status).toBe(200);
    const asBeta = { key: t.beta.key };
    const res = await t.call("GET", "/api/v1/skills/crlf-skill", asBeta);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("SkillNotFound");
    expect((await t.call("GET", "/api/v1/skills/asset-skill/files/assets/blob.bin", asBeta)).status).toBe(404);
    expect((await t.call("GET", "/api/v1/skills/asset-skill/files", asBeta)).status).toBe(404);
    expect((await t.call("GET", "/api/v1/skills/sloppy/lint", asBeta)).status).toBe(404);
    const betaListing = await (await t.call("GET", "/api/v1/listing", asBeta)).text();
    expect(betaListing).not.toContain("## Workspace directory skills");
    const betaSkills = await (await t.call("GET", "/api/v1/skills", asBeta)).json();
    expect(betaSkills.skills.filter((s: { scope: string }) => s.scope === "workspace")).toEqual([]);
  });

  it("refuses a malformed tree with a 400 naming the problem, and changes nothing", async () => {
    await syncOk(FIRST_TREE);
    const before = await t.app.db.$count(workspaceSkillVersions);
    const cases: [File[], string][] = [
      [
        [{ path: "one/../two/SKILL.md", content: "x" }],
        'invalid path: file path "one/../two/SKILL.md" may not hold empty, "." or ".." parts',
      ],
      [
        [
          { path: "one/SKILL.md", content: skillMd("one", "ok. Use when y.") },
          { path: "one/SKILL.md", content: "dup" },
        ],
        'invalid path: "one/SKILL.md" appears twice',
      ],
      [
        [
          { path: "one/SKILL.md", content: skillMd("one", "ok. Use when y.") },
          { path: "one/x.bin", content: "!!notbase64", encoding: "base64" },
        ],
        'field "files.2.content": "one/x.bin" is marked base64 but is not valid base64',
      ],
    ];
    for (const [files, message] of cases) {
      const res = await sync([{ path: "good-one/SKILL.md", content: skillMd("good-one", "Fine. Use when fine.") }, ...files]);
      expect(res.status, message).toBe(400);
      expect((await res.json()).error.message).toBe(message);
    }
    expect(await t.app.db.$count(workspaceSkillVersions)).toBe(before);
    expect((await t.call("GET", "/api/v1/skills/good-one")).status).toBe(404);
  });
});

describe.each(testDbKinds)("learned skills and drafts in the catalog on %s", (kind) => {
  const t = useTestApp(kind);

  const create = (name: string, status: "draft" | "active", body = "Learned body.\n") =>
    createLearned(
      t.app,
      t.alpha.team.id,
      { kind: "key", keyId: 1, credential: "key", scopes: ["admin"], sessionId: "s1" },
      {
        name,
        description: `Learned ${name}. Use when testing.`,
        body,
        status,
        reason: "a test",
      },
    );

  it("annotates learned skills and drafts, and keeps drafts out of the listing", async () => {
    await create("release-checklist", "active", "# Release\r\n  steps  ");
    await create("triage-notes", "draft");
    expect(await (await t.call("GET", "/api/v1/skills/release-checklist")).text()).toBe(
      "[skill release-checklist | learned | v1]\n# Release\r\n  steps  ",
    );
    expect(await (await t.call("GET", "/api/v1/skills/triage-notes")).text()).toBe("[skill triage-notes | draft | v1]\nLearned body.\n");
    const listing = await (await t.call("GET", "/api/v1/listing")).text();
    expect(listing.endsWith("## Learned\n- release-checklist: Learned release-checklist. Use when testing.")).toBe(true);
    expect(listing).not.toContain("triage-notes");
    const skills = (await (await t.call("GET", "/api/v1/skills")).json()).skills;
    expect(skills.find((s: { name: string }) => s.name === "triage-notes")).toEqual({
      name: "triage-notes",
      source: "learned",
      scope: "learned",
      version: 1,
      description: "Learned triage-notes. Use when testing.",
      status: "draft",
      folder: null,
      provenance: { source: "agent", ref: "s1", reason: "a test", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), forkedFrom: null },
      served: { version: 1, why: "latest" },
    });
  });

  it("refuses a learned name held by a built-in, a file skill or another learned skill, with the exact messages", async () => {
    await create("triage-notes", "draft");
    await expect(create("writing-plans", "draft")).rejects.toThrow('Error [NameCollision]: "writing-plans" is held by a builtin skill');
    await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "ci-gate/SKILL.md", content: skillMd("ci-gate", "Gate. Use when CI runs.") }] },
    });
    await expect(create("ci-gate", "draft")).rejects.toThrow('Error [NameCollision]: "ci-gate" is held by a file skill');
    await expect(create("triage-notes", "active")).rejects.toThrow('Error [SkillExists]: learned skill "triage-notes" already exists');
  });

  it("lets a later file skill shadow a learned one, reported as a collision", async () => {
    await create("release-checklist", "active", "# Release\r\n  steps  ");
    const res = await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "release-checklist/SKILL.md", content: skillMd("release-checklist", "File version. Use when releasing.", "File body\n") },
        ],
      },
    });
    expect((await res.json()).diagnostics).toContain("[collision] release-checklist (learned) shadowed by file skills/release-checklist");
    expect(await (await t.call("GET", "/api/v1/skills/release-checklist")).text()).toBe(
      "[skill release-checklist | file | v1 | skills/release-checklist]\nFile body\n",
    );
  });

  it("serves a draft only while no active skill holds its name", async () => {
    await create("triage-notes", "draft");
    expect((await (await t.call("GET", "/api/v1/skills/triage-notes")).text()).split("\n")[0]).toBe("[skill triage-notes | draft | v1]");
    await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [{ path: "triage-notes/SKILL.md", content: skillMd("triage-notes", "File triage. Use when triaging.", "File triage\n") }],
      },
    });
    expect((await (await t.call("GET", "/api/v1/skills/triage-notes")).text()).split("\n")[0]).toBe(
      "[skill triage-notes | file | v1 | skills/triage-notes]",
    );
  });
});
