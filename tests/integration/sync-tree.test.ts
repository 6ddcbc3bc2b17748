import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { workspaceInvalidFolders, workspaceSkillVersions } from "@/db/schema";
import { packTarGz, readTarGz } from "@/lib/skills/tar-gz";
import { readDiskTree } from "@/lib/skills/tree";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * A team's skills tree as real repositories hold it (docs/skills-and-listing.md#sync): a root README and LICENSE, .git/, a
 * .gitignore, node_modules, a symlink, a BOM and CRLF, a 755 script, a binary file, a skill that
 * breaks soft rules (Anthropic's own claude-api has a 1,068-character description) and folders
 * that break hard ones. It syncs as it is, the same whichever way it arrives.
 */

const LONG_DESCRIPTION = `Builds apps with the Claude API. ${"Use when code imports the SDK. ".repeat(40)}`.slice(0, 1068);
const PDF_SKILL_MD =
  "\uFEFF---\r\nname: pdf-tools\r\ndescription: Fills and extracts PDF forms. Use when a task involves a PDF.\r\n---\r\n# PDF tools\r\n";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]);

function writeRealTree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skillgate-tree-"));
  const write = (rel: string, content: string | Buffer, mode = 0o644) => {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    chmodSync(file, mode);
  };
  write("README.md", "# Our skills\n");
  write("LICENSE", "MIT\n");
  write(".gitignore", "node_modules\n");
  write(".DS_Store", Buffer.from([0, 0, 0, 1]));
  write(".git/HEAD", "ref: refs/heads/main\n");
  write(".git/objects/ab/cdef", Buffer.from([120, 1, 2, 3]));
  write("node_modules/left-pad/index.js", "module.exports = 1;\n");
  write("pdf-tools/SKILL.md", PDF_SKILL_MD);
  write("pdf-tools/scripts/extract.sh", "#!/bin/sh\r\necho extract\r\n", 0o755);
  write("pdf-tools/scripts/helper.py", "print('hi')\n");
  write("pdf-tools/assets/logo.png", PNG);
  write("pdf-tools/.gitignore", "*.pyc\n");
  symlinkSync("../README.md", path.join(dir, "pdf-tools/forms.md"));
  write(
    "claude-api/SKILL.md",
    `---\nname: claude-api\ndescription: ${JSON.stringify(LONG_DESCRIPTION)}\nargument-hint: "[model]"\nmetadata:\n  internal: true\n---\n# Claude API\n`,
  );
  write("broken/SKILL.md", "---\nname: Broken\n---\nbody\n");
  write("no-skill-md/notes.md", "notes\n");
  write("unclosed/SKILL.md", "---\nname: unclosed\ndescription: Never closed. Use when never.\n# Body\n");
  return dir;
}

/** `tar czf - -C dir .`, as the README tells a team to send its tree. */
function tarOf(dir: string): Buffer {
  const result = spawnSync("tar", ["czf", "-", "-C", dir, "."], { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
  return result.stdout;
}

const IGNORED = [".DS_Store", ".git/", ".gitignore", "LICENSE", "README.md", "node_modules/", "pdf-tools/.gitignore", "pdf-tools/forms.md"];
const INVALID = [
  {
    folder: "broken",
    errors: ['name "Broken" may hold only lowercase letters, digits and hyphens', 'description of "Broken" is required'],
  },
  { folder: "no-skill-md", errors: ['folder "no-skill-md" has no SKILL.md; every skill folder needs one'] },
  {
    folder: "unclosed",
    errors: ['the frontmatter of unclosed/SKILL.md is never closed: end it with a "---" line before the body'],
  },
];
const INVALID_LINES = [
  '[invalid] broken: name "Broken" may hold only lowercase letters, digits and hyphens',
  '[invalid] broken: description of "Broken" is required',
  '[invalid] no-skill-md: folder "no-skill-md" has no SKILL.md; every skill folder needs one',
  '[invalid] unclosed: the frontmatter of unclosed/SKILL.md is never closed: end it with a "---" line before the body',
];
const CLAUDE_API_WARNINGS = [
  "[warning] claude-api: description is 1068 characters; the Agent Skills spec allows 1024 (kept)",
  '[warning] claude-api: metadata.internal is not a string; read as "true"',
  '[warning] claude-api: frontmatter field "argument-hint" is not in the Agent Skills spec (kept)',
];

describe.each(testDbKinds)("syncing a real-looking tree on %s", (kind) => {
  const t = useTestApp(kind);
  const dir = writeRealTree();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const syncTar = (archive: Buffer, query = "") =>
    t.call("POST", `/api/v1/skills/sync${query}`, { body: new Uint8Array(archive), headers: { "content-type": "application/gzip" } });
  /** The same tree as JSON, as a plain client sends it: every file under the folder (.git/ too), bits included; JSON has no links. */
  const syncJson = () => {
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const full = path.join(entry.parentPath, entry.name);
        return {
          path: path.relative(dir, full).split(path.sep).join("/"),
          content: readFileSync(full).toString("base64"),
          encoding: "base64",
          ...((statSync(full).mode & 0o111) !== 0 && { executable: true }),
        };
      });
    return t.call("POST", "/api/v1/skills/sync", { json: { files } });
  };

  it("serves the valid folders, keeps the invalid ones with every error, warns on soft rules and lists what it ignored", async () => {
    const res = await syncTar(tarOf(dir));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.changes).toEqual({ added: ["claude-api", "pdf-tools"], updated: [], unchanged: [], removed: [] });
    expect(body.invalid).toEqual(INVALID);
    expect(body.ignored).toEqual(IGNORED);
    expect(body.diagnostics).toEqual([...INVALID_LINES, ...CLAUDE_API_WARNINGS]);

    const skills = await (await t.call("GET", "/api/v1/skills")).json();
    expect(skills.diagnostics).toEqual(body.diagnostics);
    const workspace = skills.skills.filter((skill: { scope: string }) => skill.scope === "workspace");
    expect(
      workspace.map((skill: { name: string; status: string; version: number | null }) => [skill.name, skill.status, skill.version]),
    ).toEqual([
      ["claude-api", "active", 1],
      ["pdf-tools", "active", 1],
      ["broken", "invalid", null],
      ["no-skill-md", "invalid", null],
      ["unclosed", "invalid", null],
    ]);
    expect(workspace[2]).toEqual({
      name: "broken",
      source: "file",
      scope: "workspace",
      version: null,
      description: "",
      status: "invalid",
      folder: "skills/broken",
      errors: INVALID[0]?.errors,
    });

    const listing = await (await t.call("GET", "/api/v1/listing?full=true")).text();
    expect(listing).toContain(`- claude-api: ${LONG_DESCRIPTION}\n`);
    expect(listing).toContain("- pdf-tools: Fills and extracts PDF forms. Use when a task involves a PDF.");
    expect(listing).not.toMatch(/broken|unclosed|no-skill-md|\[invalid\]|\[warning\]/);
    expect((await t.call("GET", "/api/v1/skills/unclosed")).status).toBe(404);

    // Byte for byte: the BOM and CRLF of SKILL.md, a CRLF script, a binary file.
    const skillMdBack = await t.call("GET", "/.well-known/skills/pdf-tools/SKILL.md");
    expect(Buffer.from(await skillMdBack.arrayBuffer())).toEqual(Buffer.from(PDF_SKILL_MD, "utf8"));
    const png = await t.call("GET", "/api/v1/skills/pdf-tools/files/assets/logo.png");
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);
    expect(await (await t.call("GET", "/api/v1/skills/pdf-tools/files")).json()).toEqual({
      name: "pdf-tools",
      files: [
        { path: "assets/logo.png", size: PNG.length, executable: false },
        { path: "scripts/extract.sh", size: 25, executable: true },
        { path: "scripts/helper.py", size: 12, executable: false },
      ],
    });
  });

  it("gives the same versions and the same report whichever way the tree arrives: tar(1), the CLI's tar, JSON", async () => {
    const first = await (await syncTar(tarOf(dir))).json();
    const unchanged = { added: [], updated: [], unchanged: ["claude-api", "pdf-tools"], removed: [] };
    const cli = await (await syncTar(await packTarGz(readDiskTree(dir)))).json();
    expect([cli.changes, cli.invalid, cli.ignored, cli.diagnostics]).toEqual([unchanged, INVALID, IGNORED, first.diagnostics]);
    const json = await (await syncJson()).json();
    // JSON carries no links: the symlink is the one thing it cannot send, so it is not reported either.
    expect([json.changes, json.invalid, json.ignored]).toEqual([unchanged, INVALID, IGNORED.filter((p) => p !== "pdf-tools/forms.md")]);
    expect(await t.app.db.$count(workspaceSkillVersions)).toBe(2);
  });

  it("makes a new version when only an executable bit changes, and exports every file with its bit", async () => {
    await syncTar(tarOf(dir));
    chmodSync(path.join(dir, "pdf-tools/scripts/helper.py"), 0o755);
    try {
      const body = await (await syncTar(tarOf(dir))).json();
      expect(body.changes.updated).toEqual(["pdf-tools"]);
    } finally {
      chmodSync(path.join(dir, "pdf-tools/scripts/helper.py"), 0o644);
    }
    const res = await t.call("GET", "/api/v1/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    // What agents get: the built-in skills too, then the workspace's, each folder with every file and its bit.
    const { files: served } = await readTarGz(new Uint8Array(await res.arrayBuffer()), 1 << 26);
    const files = served.filter((file) => /^(claude-api|pdf-tools)\//.test(file.path));
    expect(files.map((file) => [file.path, file.executable])).toEqual([
      ["claude-api/SKILL.md", false],
      ["pdf-tools/SKILL.md", false],
      ["pdf-tools/assets/logo.png", false],
      ["pdf-tools/scripts/extract.sh", true],
      ["pdf-tools/scripts/helper.py", true],
    ]);
    expect(Buffer.from(files[1]?.content ?? [])).toEqual(Buffer.from(PDF_SKILL_MD, "utf8"));
    expect(Buffer.from(files[2]?.content ?? [])).toEqual(PNG);
  });

  it("refuses the whole tree with ?strict=true, naming every error, and changes nothing", async () => {
    const good = [{ path: "keep-me/SKILL.md", content: skillMd("keep-me", "Stays. Use when checking strict.") }];
    expect((await t.call("POST", "/api/v1/skills/sync", { json: { files: good } })).status).toBe(200);
    const res = await syncTar(tarOf(dir), "?strict=true");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "InvalidSkill",
        message: `invalid skill: 3 folder(s) break hard rules, so nothing changed:\n${INVALID_LINES.join("\n")}`,
      },
    });
    expect(await t.app.db.$count(workspaceSkillVersions)).toBe(1);
    expect(await t.app.db.$count(workspaceInvalidFolders)).toBe(0);
    expect((await t.call("GET", "/api/v1/skills/keep-me")).status).toBe(200);
    // A valid tree passes strict, soft rules and all.
    const strictOk = await t.call("POST", "/api/v1/skills/sync?strict=true", {
      json: { files: [...good, { path: "soft/SKILL.md", content: skillMd("soft", "x".repeat(1100)) }] },
    });
    expect(strictOk.status).toBe(200);
    expect((await strictOk.json()).changes.added).toEqual(["soft"]);
  });
});

describe.each(testDbKinds)("a workspace folder that turns invalid on %s", (kind) => {
  const t = useTestApp(kind);
  const sync = (files: { path: string; content: string }[]) => t.call("POST", "/api/v1/skills/sync", { json: { files } });
  const v1 = skillMd("deploy", "Deploys. Use when shipping.", "# v1\n");

  it("keeps serving its last valid version until it is fixed, and reports it as invalid meanwhile", async () => {
    expect((await sync([{ path: "deploy/SKILL.md", content: v1 }])).status).toBe(200);
    const broken = await sync([{ path: "deploy/SKILL.md", content: "---\nname: deploy\n---\n# v2 without a description\n" }]);
    expect(broken.status).toBe(200);
    const brokenBody = await broken.json();
    expect(brokenBody.changes).toEqual({ added: [], updated: [], unchanged: [], removed: [] });
    expect(brokenBody.invalid).toEqual([{ folder: "deploy", errors: ['description of "deploy" is required'] }]);
    expect(brokenBody.diagnostics).toEqual(['[invalid] deploy: description of "deploy" is required']);
    expect(await (await t.call("GET", "/api/v1/skills/deploy")).text()).toBe("[skill deploy | file | v1 | skills/deploy]\n# v1\n");
    const skills = await (await t.call("GET", "/api/v1/skills")).json();
    expect(
      skills.skills
        .filter((skill: { name: string }) => skill.name === "deploy")
        .map((skill: { status: string; version: number | null }) => [skill.status, skill.version]),
    ).toEqual([
      ["active", 1],
      ["invalid", null],
    ]);
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain("- deploy: Deploys. Use when shipping.");

    const fixed = await (
      await sync([{ path: "deploy/SKILL.md", content: skillMd("deploy", "Deploys. Use when shipping.", "# v2\n") }])
    ).json();
    expect([fixed.changes.updated, fixed.invalid, fixed.diagnostics]).toEqual([["deploy"], [], []]);
    expect(await (await t.call("GET", "/api/v1/skills/deploy")).text()).toBe("[skill deploy | file | v2 | skills/deploy]\n# v2\n");
    expect(await t.app.db.$count(workspaceInvalidFolders)).toBe(0);
  });

  it("removes an invalid folder that leaves the tree, and forgets its errors", async () => {
    await sync([{ path: "deploy/SKILL.md", content: v1 }]);
    await sync([{ path: "deploy/SKILL.md", content: "no frontmatter" }]);
    const res = await (await t.call("POST", "/api/v1/skills/sync?allowEmpty=true", { json: { files: [] } })).json();
    expect([res.changes.removed, res.invalid, res.diagnostics]).toEqual([["deploy"], [], []]);
    expect(await t.app.db.$count(workspaceInvalidFolders)).toBe(0);
    expect((await t.call("GET", "/api/v1/skills/deploy")).status).toBe(404);
  });

  it("holds learned skills to the soft rules too: 400, nothing written", async () => {
    const create = await t.call("POST", "/api/v1/skills", {
      json: { name: "too-long", description: "d".repeat(1068), body: "# b\n" },
    });
    expect(create.status).toBe(400);
    expect((await create.json()).error.message).toBe('invalid skill: description of "too-long" is 1068 characters; the limit is 1024');
    const imported = await t.call("POST", "/api/v1/learned-skills/import", {
      json: {
        files: [
          { path: "hinted/SKILL.md", content: skillMd("hinted", "Hinted. Use when importing.", "b\n", 'argument-hint: "[x]"\n') },
          { path: "flagged/SKILL.md", content: skillMd("flagged", "Flagged. Use when importing.", "b\n", "metadata:\n  internal: true\n") },
        ],
      },
    });
    expect(imported.status).toBe(400);
    expect((await imported.json()).error.message).toBe('invalid skill: metadata.internal of "flagged" must be a string (quote the value)');
    expect((await t.call("GET", "/api/v1/skills/hinted")).status).toBe(404);
  });
});
