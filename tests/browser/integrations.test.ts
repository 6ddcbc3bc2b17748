import { NO_PRODUCTION_ENTRY } from "../helpers/telemetry";
import { spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { CLI_KEY, INSTALLER_KEY } from "./server";
import { runSkillsInstaller } from "../helpers/skills-installer";

const baseUrl = inject("baseUrl");
const api = async (route: string, init: RequestInit = {}) => {
  const res = await fetch(`${baseUrl}${route}`, {
    ...init,
    headers: { authorization: `Bearer ${CLI_KEY}`, "content-type": "application/json", ...init.headers },
  });
  return res;
};

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin.end(stdin);
    else child.stdin.end();
  });
}

const cli = (...args: string[]) => run(path.resolve("bin/skillgate.mjs"), args, { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: CLI_KEY });
const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

describe("the skillgate CLI against the running app", () => {
  const repo = mkdtempSync(path.join(tmpdir(), "skillgate-cli-"));
  const write = (file: string, content: string, mode = 0o644) => {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), content);
    chmodSync(path.join(repo, file), mode);
  };

  it("syncs a folder of skills as it is, says what it ignored, and a changed skill becomes version 2", async () => {
    write("deploy-notes/SKILL.md", skill("deploy-notes", "Writes deploy notes. Use when shipping.", "# Deploy notes\n"));
    write("deploy-notes/scripts/notes.sh", "echo notes\n", 0o755);
    write("review-guide/SKILL.md", skill("review-guide", "Reviews pull requests. Use when a PR is opened.", "# Review\n"));
    write("README.md", "top-level files are not skills\n");
    write(".git/HEAD", "ref: refs/heads/main\n");
    symlinkSync("../README.md", path.join(repo, "review-guide/README.md"));
    const first = await cli("sync", repo);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      "added: deploy-notes, review-guide\nignored: .git/, README.md, review-guide/README.md\nsynced 2 skill folder(s)\n",
    );
    write("deploy-notes/SKILL.md", skill("deploy-notes", "Writes deploy notes. Use when shipping.", "# Deploy notes, v2\n"));
    const second = await cli("sync", repo);
    expect(second.stdout).toBe(
      "updated: deploy-notes\nunchanged: review-guide\nignored: .git/, README.md, review-guide/README.md\nsynced 2 skill folder(s)\n",
    );
    expect(await (await api("/api/v1/skills/deploy-notes")).text()).toBe(
      "[skill deploy-notes | file | v2 | skills/deploy-notes]\n# Deploy notes, v2\n",
    );
    expect(await (await api("/api/v1/skills/deploy-notes/files/scripts/notes.sh")).text()).toBe("echo notes\n");
  });

  it("reports an invalid folder and serves the rest; --strict refuses the whole tree for CI, and nothing changes", async () => {
    write("bad-skill/SKILL.md", skill("Bad_Skill", "Broken. Use when never.", "x\n"));
    const why = 'name "Bad_Skill" may hold only lowercase letters, digits and hyphens';
    const strict = await cli("sync", repo, "--strict");
    expect([strict.code, strict.stdout, strict.stderr]).toEqual([
      1,
      "",
      `skillgate: 400: invalid skill: 1 folder(s) break hard rules, so nothing changed:\n[invalid] bad-skill: ${why}\n`,
    ]);
    const lenient = await cli("sync", repo);
    expect([lenient.code, lenient.stderr]).toEqual([0, ""]);
    expect(lenient.stdout).toBe(
      "unchanged: deploy-notes, review-guide\nignored: .git/, README.md, review-guide/README.md\n" +
        `[invalid] bad-skill: ${why}\nsynced 2 skill folder(s); 1 invalid, not served as they are\n`,
    );
    const skills = (await (await api("/api/v1/skills")).json()).skills.filter((s: { scope: string }) => s.scope === "workspace");
    expect(skills.map((s: { name: string; version: number | null; status: string }) => [s.name, s.version, s.status])).toEqual([
      ["deploy-notes", 2, "active"],
      ["review-guide", 1, "active"],
      ["bad-skill", null, "invalid"],
    ]);
    const unknownFlag = await cli("sync", repo, "--force");
    expect([unknownFlag.code, unknownFlag.stderr.split("\n")[0]]).toEqual([2, 'skillgate: wrong arguments for "sync" (--force)']);
    rmSync(path.join(repo, "bad-skill"), { recursive: true });
  });

  it("prints the listing and a ledger, and says clearly what is wrong", async () => {
    const listing = await cli("listing");
    expect(listing.code).toBe(0);
    expect(listing.stdout).toBe(`${await (await api("/api/v1/listing")).text()}\n`);
    await api("/api/v1/ledger/cli-plan", {
      method: "POST",
      body: JSON.stringify({ action: "record-hypothesis", text: "The CLI prints ledgers" }),
    });
    const ledger = await cli("ledger", "cli-plan");
    expect(ledger.stdout).toBe(
      "[experiment] sci.cli-plan/ledger: 1 record(s), 0 open prediction(s)\nH1 hypothesis: The CLI prints ledgers\n",
    );
    const badSlug = await cli("ledger", "Bad_Slug");
    expect([badSlug.code, badSlug.stderr]).toEqual([
      1,
      'skillgate: 400: Error [InvalidSlug]: "Bad_Slug" is not a plan slug: use 1–80 lowercase letters, digits and hyphens\n',
    ]);
    const unknown = await cli("deploy");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe('skillgate: unknown command "deploy"');
    const noKey = await run(path.resolve("bin/skillgate.mjs"), ["listing"], { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: "" });
    expect([noKey.code, noKey.stderr]).toEqual([2, "skillgate: set SKILLGATE_URL and SKILLGATE_API_KEY\n"]);
    const badKey = await run(path.resolve("bin/skillgate.mjs"), ["listing"], { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: "sg_wrong" });
    expect([badKey.code, badKey.stderr]).toEqual([1, "skillgate: 401: API key not valid or revoked; ask a lead for a new one\n"]);
  });

  it("refuses a repository root whose skills sit under .claude/skills (exit 1, nothing removed); --dry-run and --allow-empty say what would change", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "skillgate-cli-root-"));
    writeFileSync(path.join(root, "README.md"), "# Our service\n");
    cpSync(path.join(repo, "deploy-notes"), path.join(root, ".claude/skills/deploy-notes"), { recursive: true });
    const refused = await cli("sync", root);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      "",
      "skillgate: 409: the tree holds no skill folder (a folder with a SKILL.md), so this sync would remove all 3 workspace skill folder(s); nothing changed. " +
        "Its 1 skill folder(s) sit deeper than a sync reads (the folders at the top of the tree): 1 in .claude/skills/. Sync .claude/skills/ itself instead. " +
        "To empty the workspace on purpose, send ?allowEmpty=true (skillgate sync --allow-empty).\n",
    ]);
    const dry = await cli("sync", path.join(root, ".claude/skills"), "--dry-run");
    expect([dry.code, dry.stderr, dry.stdout]).toEqual([
      0,
      "",
      "unchanged: deploy-notes\nremoved: bad-skill, review-guide\ndry run: would sync 1 skill folder(s); nothing written\n",
    ]);
    const emptyDry = await cli("sync", root, "--allow-empty", "--dry-run");
    expect([emptyDry.code, emptyDry.stdout]).toEqual([
      0,
      "removed: bad-skill, deploy-notes, review-guide\nignored: .claude/, README.md\ndry run: would sync 0 skill folder(s); nothing written\n",
    ]);
    // Nothing was written: the workspace holds what it held (read from the catalog, which records no view).
    const workspace = (await (await api("/api/v1/skills")).json()).skills.filter((s: { scope: string }) => s.scope === "workspace");
    expect(workspace.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      "deploy-notes:active",
      "review-guide:active",
      "bad-skill:invalid",
    ]);
    rmSync(root, { recursive: true, force: true });
  });

  it("pulls what agents get with every file and bit, no draft; --learned the learned ones; --all the whole workspace for a lead", async () => {
    const learn = (name: string, status: "active" | "draft") =>
      api("/api/v1/skills", {
        method: "POST",
        body: JSON.stringify({
          name,
          description: "Learned for the CLI. Use when pulling.",
          body: "# Learned\r\n  keep   \n",
          reason: "pull test",
          status,
        }),
      });
    expect((await learn("cli-learned", "active")).status).toBe(201);
    expect((await learn("cli-draft", "draft")).status).toBe(201);
    const listed = [...(await (await api("/api/v1/listing?full=true")).text()).matchAll(/^- ([a-z0-9-]+)/gm)].map((m) => m[1]).sort();
    const out = mkdtempSync(path.join(tmpdir(), "skillgate-pull-"));
    const pulled = await cli("pull", out);
    const written = readdirSync(out).filter((entry) => entry !== ".skillgate-pull.json");
    const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name !== ".skillgate-pull.json");
    expect([pulled.code, pulled.stdout]).toEqual([0, `wrote ${listed.length} skill(s), ${files.length} file(s), to ${out}\n`]);
    expect(written.sort()).toEqual(listed);
    expect(written).toContain("cli-learned");
    expect(written).not.toContain("cli-draft");
    for (const file of ["deploy-notes/SKILL.md", "deploy-notes/scripts/notes.sh", "review-guide/SKILL.md"]) {
      expect(readFileSync(path.join(out, file)), file).toEqual(readFileSync(path.join(repo, file)));
    }
    expect(statSync(path.join(out, "deploy-notes/scripts/notes.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(path.join(out, "deploy-notes/SKILL.md")).mode & 0o777).toBe(0o644);
    // What agents get is the SKILL.md skill_view serves, with no provenance added.
    expect(readFileSync(path.join(out, "cli-learned/SKILL.md"), "utf8")).toBe(
      "---\nname: cli-learned\ndescription: Learned for the CLI. Use when pulling.\n---\n# Learned\r\n  keep   \n",
    );

    const learnedOnly = mkdtempSync(path.join(tmpdir(), "skillgate-pull-learned-"));
    const learned = await cli("pull", learnedOnly, "--learned");
    expect([learned.code, learned.stdout]).toEqual([0, `wrote 1 learned skill(s), 1 file(s), to ${learnedOnly}\n`]);
    expect(readdirSync(learnedOnly).sort()).toEqual([".skillgate-pull.json", "cli-learned"]);

    const whole = mkdtempSync(path.join(tmpdir(), "skillgate-pull-all-"));
    const all = await cli("pull", "--all", whole);
    expect(all.code).toBe(0);
    expect(readdirSync(path.join(whole, "learned")).sort()).toEqual(["cli-draft", "cli-learned"]);
    const file = readFileSync(path.join(whole, "learned/cli-learned/SKILL.md"), "utf8");
    expect(file).toContain("  skillgate.reason: pull test\n");
    // The whole workspace's learned folders are the learned export, which imports elsewhere and exports again byte for byte.
    const exported = await (await api("/api/v1/learned-skills/export")).arrayBuffer();
    const { readTarGz } = await import("@/lib/skills/tar-gz");
    const { files: entries } = await readTarGz(new Uint8Array(exported), 1 << 20);
    const entry = entries.find((candidate) => candidate.path === "cli-learned/SKILL.md");
    expect(Buffer.from(entry!.content).toString("utf8")).toBe(file);
  });
});

const indexSchema = z.strictObject({
  skills: z.array(
    z.object({
      name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
      description: z.string().min(1).max(1024),
      files: z.array(z.string().min(1)).min(1),
    }),
  ),
});

describe("the skills index", () => {
  it("lists the team's active skills in the installers' form, and serves every file it names", async () => {
    expect((await fetch(`${baseUrl}/.well-known/skills/index.json`)).status).toBe(401);
    const index = indexSchema.parse(await (await api("/.well-known/skills/index.json")).json());
    const names = index.skills.map((s) => s.name);
    const listing = await (await api("/api/v1/listing?format=json")).json();
    expect(names).toEqual(listing.groups.flatMap((g: { entries: { name: string }[] }) => g.entries.map((e) => e.name)));
    const notes = index.skills.find((s) => s.name === "deploy-notes")!;
    expect(notes.files).toEqual(["SKILL.md", "scripts/notes.sh"]);
    for (const entry of index.skills) {
      for (const file of entry.files) {
        const res = await api(`/.well-known/skills/${entry.name}/${file}`);
        expect(res.status, `${entry.name}/${file}`).toBe(200);
        if (file === "SKILL.md") expect(await res.text()).toMatch(new RegExp(`^---\\r?\\nname: ${entry.name}\\r?\\n`));
      }
    }
  });
});

describe("the real `skills` installer (npx skills add) through an install link", () => {
  /** A tree as a team has it: CRLF, a 755 script, a binary asset, a reference, a BOM. */
  const FILES: Record<string, Buffer> = {
    "pdf-forms/SKILL.md": Buffer.from(
      "---\r\nname: pdf-forms\r\ndescription: Fills PDF forms. Use when a form must be filled.\r\n---\r\n# PDF forms\r\nSee references/fields.md.\r\n",
    ),
    "pdf-forms/scripts/fill.sh": Buffer.from("#!/bin/sh\necho fill\n"),
    "pdf-forms/assets/blank.pdf": Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff, 0xfe, 0x80]),
    "pdf-forms/references/fields.md": Buffer.from("# Fields\n\n| name | type |\n"),
    "release-notes/SKILL.md": Buffer.from(
      "---\nname: release-notes\ndescription: Writes release notes. Use when a version ships.\n---\n# Release notes\n",
    ),
  };
  const BOM_SKILL_MD = Buffer.from("\uFEFF---\nname: bom-notes\ndescription: Keeps a BOM. Use when an editor wrote one.\n---\n# BOM\n");
  const installer = runSkillsInstaller;

  it("lists and installs the team's skills with no key, every file byte for byte", async () => {
    const files = Object.entries({ ...FILES, "bom-notes/SKILL.md": BOM_SKILL_MD }).map(([file, content]) => ({
      path: file,
      content: content.toString("base64"),
      encoding: "base64",
      ...(file.endsWith(".sh") && { executable: true }),
    }));
    const asInstallerTeam = { authorization: `Bearer ${INSTALLER_KEY}` };
    expect((await api("/api/v1/skills/sync", { method: "POST", headers: asInstallerTeam, body: JSON.stringify({ files }) })).status).toBe(
      200,
    );
    const created = await api("/api/v1/install-links", { method: "POST", headers: asInstallerTeam });
    expect(created.status).toBe(201);
    const { url } = (await created.json()) as { url: string };
    expect(url.startsWith(`${baseUrl}/i/sgi_`)).toBe(true);

    const project = mkdtempSync(path.join(tmpdir(), "skillgate-installer-"));
    const listed = await installer(["add", url, "--list"], project);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toContain("pdf-forms");
    expect(listed.out).toContain("release-notes");
    expect(listed.out).toContain("systematic-debugging");
    expect(listed.out).toContain("Fills PDF forms. Use when a form must be filled.");

    const installed = await installer(["add", url, "--skill", "*", "--agent", "claude-code", "--yes", "--copy"], project);
    expect(installed.code, installed.out).toBe(0);
    // Every skill of the team's catalog: its own, and the built-in and global ones it sees.
    const index = (await (await api("/.well-known/skills/index.json", { headers: asInstallerTeam })).json()) as {
      skills: { name: string }[];
    };
    const root = path.join(project, ".claude", "skills");
    expect(readdirSync(root).sort()).toEqual(index.skills.map((entry) => entry.name).sort());
    expect(index.skills.map((entry) => entry.name)).toEqual(expect.arrayContaining(["pdf-forms", "release-notes"]));
    for (const [file, content] of Object.entries(FILES)) {
      expect(readFileSync(path.join(root, file)), file).toEqual(content);
    }
    // The index has no mode, so the 755 script arrives without its executable bit (README "Skill installers" says so).
    expect(statSync(path.join(root, "pdf-forms/scripts/fill.sh")).mode & 0o111).toBe(0);
    // The link serves a BOM byte for byte; this installer reads SKILL.md as text, which drops it (and nothing else).
    expect(Buffer.from(await (await fetch(`${url}/.well-known/skills/bom-notes/SKILL.md`)).arrayBuffer())).toEqual(BOM_SKILL_MD);
    expect(readFileSync(path.join(root, "bom-notes/SKILL.md"))).toEqual(BOM_SKILL_MD.subarray(3));
  });
});

describe("the Claude Code hook", () => {
  it("reports a Skill tool load with the Claude Code session id", async () => {
    const payload = {
      session_id: "claude-session-7",
      transcript_path: "/tmp/transcript.jsonl",
      cwd: "/repo",
      hook_event_name: "PostToolUse",
      tool_name: "Skill",
      tool_input: { skill: "review-guide" },
      tool_response: { success: true },
    };
    const hook = await run(
      path.resolve("hooks/claude-code/report-skill-load.mjs"),
      [],
      { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: CLI_KEY },
      JSON.stringify(payload),
    );
    expect([hook.code, hook.stdout, hook.stderr]).toEqual([0, "", ""]);
    const other = await run(
      path.resolve("hooks/claude-code/report-skill-load.mjs"),
      [],
      { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: CLI_KEY },
      JSON.stringify({ ...payload, tool_name: "Bash", tool_input: { command: "ls" } }),
    );
    expect(other.code).toBe(0);
    const usage = await (await api("/api/v1/usage")).json();
    expect(usage.skills.find((s: { name: string }) => s.name === "review-guide")).toEqual({
      name: "review-guide",
      views7d: 1,
      views30d: 1,
      lastViewedAt: expect.any(String),
      sessions: 1,
      // The hook records views; activations come from telemetry (docs/telemetry.md#activations), and none was sent.
      activations: { proactive: 0, slash: 0, nested: 0 },
      people: 0,
      typedOnly: false,
      proactivePer100Prompts: null,
      ...NO_PRODUCTION_ENTRY,
    });
    const unknown = await run(
      path.resolve("hooks/claude-code/report-skill-load.mjs"),
      [],
      { SKILLGATE_URL: baseUrl, SKILLGATE_API_KEY: CLI_KEY },
      JSON.stringify({ ...payload, tool_input: { skill: "not-here" } }),
    );
    expect([unknown.code, unknown.stderr]).toEqual([
      0,
      "skillgate hook: recorded nothing: not-here: HTTP 404 Error [SkillNotFound]: No skill named 'not-here'. Use skill_list to see available skills.\n",
    ]);
  });
});
