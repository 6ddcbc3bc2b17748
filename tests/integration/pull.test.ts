import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main } from "@/cli/main";
import { FIXTURES, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";

/**
 * `skillgate pull` hands agents exactly what Skillgate serves (issue 39, point 2): the listing's
 * skills at their served versions (a lead's pin, the label asked for), byte for byte, and nothing
 * else — no draft, no shadowed folder. `--all` is a lead's copy of the whole workspace, never into
 * an agent's skills folder.
 */
describe.each(testDbKinds)("skillgate pull on %s", (kind) => {
  const t = useTestApp(kind, { globalSkillsDir: path.join(FIXTURES, "global-skills") });
  let bridge: HttpBridge;
  beforeAll(async () => {
    bridge = await httpBridge();
  });
  afterAll(async () => bridge.close());

  const skillMd = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
  const file = (filePath: string, content: string, executable = false) => ({ path: filePath, content, ...(executable && { executable }) });

  beforeEach(async () => {
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          file("deploy-notes/SKILL.md", skillMd("deploy-notes", "Writes deploy notes. Use when shipping.", "# Deploy\r\n  keep   \n")),
          file("deploy-notes/scripts/notes.sh", "#!/bin/sh\necho notes\n", true),
          file("deploy-notes/references/style.md", "# Style\n"),
          // Shadowed by the built-in and by the global skill of the same names: not what agents get.
          file("systematic-debugging/SKILL.md", skillMd("systematic-debugging", "A team's own variant. Use when debugging.", "# Ours\n")),
          file("ci-green-gate/SKILL.md", skillMd("ci-green-gate", "A team's own gate. Use when CI runs.", "# Ours too\n")),
        ],
      },
    });
    expect(sync.status).toBe(200);
    const must = async (res: Promise<Response>) => expect((await res).status).toBeLessThan(300);
    await must(
      t.call("POST", "/api/v1/skills", {
        json: { name: "release-notes", description: "Writes release notes, take 1. Use when shipping.", body: "# v1\n", status: "active" },
      }),
    );
    await must(
      t.call("PUT", "/api/v1/skills/release-notes", {
        json: { description: "Writes release notes, take 2. Use when shipping.", body: "# v2\n", expectedVersion: 1 },
      }),
    );
    await must(t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } }));
    await must(t.call("PUT", "/api/v1/skills/release-notes/labels/staging", { json: { version: 2 } }));
    await must(
      t.call("POST", "/api/v1/skills", { json: { name: "draft-notes", description: "Drafts notes. Use when drafting.", body: "# d\n" } }),
    );
  });

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_URL: bridge.url, SKILLGATE_API_KEY: t.alpha.key };
    const code = await main(
      argv,
      env,
      (line) => out.push(line),
      (line) => err.push(line),
    );
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const folders = (dir: string) =>
    readdirSync(dir)
      .filter((entry) => entry !== ".skillgate-pull.json")
      .sort();
  /** The names in the full catalog's text (`- name: description`), as agents read them. */
  const listedNames = async (query = "") =>
    [...(await (await t.call("GET", `/api/v1/listing?full=true${query}`)).text()).matchAll(/^- ([a-z0-9-]+)/gm)]
      .map((m) => m[1] ?? "")
      .sort();

  it("writes exactly the listing's skills at their served versions, each SKILL.md byte for byte as skill_view serves it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate-pull-"));
    const pulled = await cli("pull", dir);
    const names = await listedNames();
    expect(names).toContain("release-notes");
    expect(names).not.toContain("draft-notes");
    expect(folders(dir)).toEqual(names);
    const files = names.reduce(
      (sum, name) => sum + readdirSync(path.join(dir, name), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
      0,
    );
    expect([pulled.code, pulled.out, pulled.err]).toEqual([0, `wrote ${names.length} skill(s), ${files} file(s), to ${dir}`, ""]);
    for (const name of names) {
      const bytes = readFileSync(path.join(dir, name, "SKILL.md"));
      const viewed = await t.call("GET", `/api/v1/skills/${name}`);
      const body = (await viewed.text()).split("\n").slice(1).join("\n");
      expect(viewed.headers.get("etag"), name).toBe(`"${createHash("sha256").update(bytes).digest("hex")}"`);
      expect(bytes.toString("utf8").endsWith(`---\n${body}`), name).toBe(true);
      const installed = Buffer.from(await (await t.call("GET", `/.well-known/skills/${name}/SKILL.md`)).arrayBuffer());
      expect(bytes.equals(installed), name).toBe(true);
    }
    // The pinned version, the built-in and global skills rather than the workspace's shadowed variants, and every file with its bit.
    expect(readFileSync(path.join(dir, "release-notes/SKILL.md"), "utf8").endsWith("---\n# v1\n")).toBe(true);
    expect(readFileSync(path.join(dir, "systematic-debugging/SKILL.md"), "utf8")).toBe(
      readFileSync("skills/systematic-debugging/SKILL.md", "utf8"),
    );
    expect(readFileSync(path.join(dir, "ci-green-gate/SKILL.md"), "utf8")).toBe(
      readFileSync(path.join(FIXTURES, "global-skills/ci-green-gate/SKILL.md"), "utf8"),
    );
    expect(readFileSync(path.join(dir, "deploy-notes/SKILL.md"), "utf8").endsWith("---\n# Deploy\r\n  keep   \n")).toBe(true);
    expect(statSync(path.join(dir, "deploy-notes/scripts/notes.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(path.join(dir, "deploy-notes/references/style.md")).mode & 0o777).toBe(0o644);
  });

  it("honours a label: the labelled version where a skill has it, the default elsewhere; --learned keeps the learned ones", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate-pull-label-"));
    expect((await cli("pull", dir, "--label", "staging")).code).toBe(0);
    expect(folders(dir)).toEqual(await listedNames("&label=staging"));
    expect(readFileSync(path.join(dir, "release-notes/SKILL.md"), "utf8").endsWith("---\n# v2\n")).toBe(true);
    const learned = mkdtempSync(path.join(tmpdir(), "skillgate-pull-learned-"));
    const pulled = await cli("pull", learned, "--learned", "--label=staging");
    expect([pulled.code, pulled.out]).toEqual([0, `wrote 1 learned skill(s), 1 file(s), to ${learned}`]);
    expect(folders(learned)).toEqual(["release-notes"]);
    const typo = await cli("pull", dir, "--label", "stagin");
    expect([typo.code, typo.err]).toEqual([
      1,
      "skillgate: 404: no skill of this team has the label 'stagin'; the team's labels are staging",
    ]);
  });

  it("removes what an earlier pull wrote that is no longer served, and nothing else", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate-pull-again-"));
    mkdirSync(path.join(dir, "my-own"));
    writeFileSync(path.join(dir, "my-own/SKILL.md"), "mine\n");
    expect((await cli("pull", dir)).code).toBe(0);
    writeFileSync(path.join(dir, "deploy-notes/stale.md"), "left from before\n");
    expect((await t.call("DELETE", "/api/v1/skills/release-notes")).status).toBe(200);
    const again = await cli("pull", dir);
    expect([again.code, again.out.split("\n")[1]]).toEqual([0, "removed 1 no longer served: release-notes"]);
    expect(existsSync(path.join(dir, "release-notes"))).toBe(false);
    expect(existsSync(path.join(dir, "deploy-notes/stale.md"))).toBe(false);
    expect(readFileSync(path.join(dir, "my-own/SKILL.md"), "utf8")).toBe("mine\n");
  });

  it("--all copies the whole workspace for a lead, drafts and shadowed folders included, and never into an agent's skills folder", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skillgate-pull-all-"));
    const pulled = await cli("pull", "--all", dir);
    expect([pulled.code, pulled.out]).toEqual([0, `wrote 5 workspace and learned skill(s), 7 file(s), to ${dir}`]);
    expect(folders(path.join(dir, "workspace"))).toEqual(["ci-green-gate", "deploy-notes", "systematic-debugging"]);
    expect(folders(path.join(dir, "learned"))).toEqual(["draft-notes", "release-notes"]);
    expect(readFileSync(path.join(dir, "workspace/systematic-debugging/SKILL.md"), "utf8").endsWith("---\n# Ours\n")).toBe(true);
    expect(readFileSync(path.join(dir, "learned/draft-notes/SKILL.md"), "utf8")).toContain("  skillgate.status: draft\n");
    for (const agentFolder of [".claude/skills", ".agents/skills"]) {
      const target = path.join(mkdtempSync(path.join(tmpdir(), "skillgate-repo-")), agentFolder);
      const refused = await cli("pull", "--all", target);
      expect([refused.code, refused.err.split("\n")[0]]).toEqual([
        2,
        `skillgate: --all writes drafts and shadowed skills, which agents must not be offered: pull --all into a folder that is not an agent's skills folder (not ${target})`,
      ]);
      expect(existsSync(target)).toBe(false);
    }
    const mixed = await cli("pull", "--all", dir, "--label", "staging");
    expect([mixed.code, mixed.err.split("\n")[0]]).toEqual([
      2,
      "skillgate: --all pulls the whole workspace: leave out --label and --learned",
    ]);
  });
});
