import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { main } from "@/cli/main";
import { readTarGz } from "@/lib/skills/tar-gz";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";
import {
  ANTHROPIC_SKILLS,
  layoutFiles,
  OPENAI_SKILLS,
  TRAILOFBITS,
  UIPATH,
  VERCEL_AGENT_SKILLS,
  type RepositoryLayout,
} from "../helpers/repository-layouts";
import { skillMd } from "../helpers/skills";

/**
 * Issue 39 (8): a tree sent from the wrong folder says where its skill folders are — counted by
 * the folder holding them, hidden or not, with exact counts, the same whichever way the tree
 * came (JSON, a tar, the CLI) — and a top-level folder that only holds skill folders says so.
 * The trees are public repositories' layouts, path for path (tests/helpers/repository-layouts.ts).
 */

const REFUSED = (removed: number) =>
  `the tree holds no skill folder (a folder with a SKILL.md), so this sync would remove all ${removed} workspace skill folder(s); nothing changed. `;
const ON_PURPOSE = " To empty the workspace on purpose, send ?allowEmpty=true (skillgate sync --allow-empty).";
const DEEPER = "sit deeper than a sync reads (the folders at the top of the tree)";
const GATHER = "A sync reads one folder of skill folders: sync the one that holds most";

const HINTS = {
  trailofbits:
    `Its 77 skill folder(s) ${DEEPER}: 76 in plugins/*/skills/ (42 folders: 14 in plugins/trailmark/skills/, ` +
    "10 in plugins/testing-handbook-skills/skills/, 9 in plugins/building-secure-contracts/skills/ and 39 more), 1 in .codex/skills/. " +
    `${GATHER} (plugins/trailmark/skills/), or gather the skill folders into one folder and sync that.`,
  vercel: `Its 7 skill folder(s) ${DEEPER}: 7 in skills/. Sync skills/ itself instead.`,
  uipath: `Its 29 skill folder(s) ${DEEPER}: 28 in skills/, 1 in .claude/skills/. ${GATHER} (skills/), or gather the skill folders into one folder and sync that.`,
  openai: `Its 10 skill folder(s) ${DEEPER}: 6 in skills/.curated/, 4 in skills/.system/. ${GATHER} (skills/.curated/), or gather the skill folders into one folder and sync that.`,
};

/** Writes files under a new folder, as a checkout holds them. */
function writeTree(files: { path: string; content: string }[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skillgate-layout-"));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.content);
  }
  return dir;
}

describe.each(testDbKinds)("where a tree's skill folders are, on %s", (kind) => {
  const t = useTestApp(kind);
  const dirs: string[] = [];
  let bridge: HttpBridge;
  beforeAll(async () => {
    bridge = await httpBridge();
  });
  afterAll(async () => {
    await bridge.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const syncJson = (files: { path: string; content: string }[], query = "") =>
    t.call("POST", `/api/v1/skills/sync${query}`, { json: { files } });
  const syncTar = (dir: string) =>
    t.call("POST", "/api/v1/skills/sync", {
      body: new Uint8Array(spawnSync("tar", ["czf", "-", "-C", dir, "."]).stdout),
      headers: { "content-type": "application/gzip" },
    });
  const cli = async (dir: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { NODE_ENV: "test" as const, SKILLGATE_URL: bridge.url, SKILLGATE_API_KEY: t.alpha.key };
    const code = await main(
      ["sync", dir],
      env,
      (line) => out.push(line),
      (line) => err.push(line),
    );
    return { code, out, err };
  };
  const checkout = (layout: RepositoryLayout) => {
    const dir = writeTree(layoutFiles(layout));
    dirs.push(dir);
    return dir;
  };
  /** Two workspace skills the refused trees would remove. */
  const holdTwo = async () => {
    const res = await syncJson(
      ["api-review", "db-migrations"].map((name) => ({
        path: `${name}/SKILL.md`,
        content: skillMd(name, `Does ${name}. Use when asked.`),
      })),
    );
    expect(res.status).toBe(200);
  };

  it.each([
    ["trailofbits/skills", TRAILOFBITS, HINTS.trailofbits],
    ["vercel-labs/agent-skills", VERCEL_AGENT_SKILLS, HINTS.vercel],
    ["UiPath/skills", UIPATH, HINTS.uipath],
    ["openai/skills", OPENAI_SKILLS, HINTS.openai],
  ])("refuses the root of %s, naming where its skill folders are with their counts", async (_name, layout, hint) => {
    await holdTwo();
    const res = await syncJson(layoutFiles(layout));
    expect([res.status, await errorOf(res)]).toEqual([409, { code: "EmptyTree", message: REFUSED(2) + hint + ON_PURPOSE }]);
    expect(await t.app.db.$count(workspaceSkillVersions)).toBe(2);
  });

  it("says the same whichever way the tree comes: JSON, tar(1), the CLI (which prints the server's message)", async () => {
    await holdTwo();
    const dir = checkout(UIPATH);
    const message = REFUSED(2) + HINTS.uipath + ON_PURPOSE;
    const asTar = await syncTar(dir);
    expect([asTar.status, await errorOf(asTar)]).toEqual([409, { code: "EmptyTree", message }]);
    expect(await cli(dir)).toEqual({ code: 1, out: [], err: [`skillgate: 409: ${message}`] });
    // The CLI sends a hidden folder without its content, but says where its SKILL.md files are.
    const openaiSkills = path.join(checkout(OPENAI_SKILLS), "skills");
    expect(await cli(openaiSkills)).toEqual({
      code: 1,
      out: [],
      err: [
        `skillgate: 409: ${REFUSED(2)}Its 10 skill folder(s) ${DEEPER}: 6 in .curated/, 4 in .system/. ` +
          `${GATHER} (.curated/), or gather the skill folders into one folder and sync that.${ON_PURPOSE}`,
      ],
    });
    // What the CLI sent of the hidden folders: where their SKILL.md files are, none of what they hold.
    const sent = await readTarGz(new Uint8Array(bridge.exchanges().at(-1)?.body ?? []), 1 << 26);
    expect(sent.files.map((file) => `${file.path} ${file.content.byteLength}`)).toEqual(
      OPENAI_SKILLS.skillMds.map((skillMdPath) => `${skillMdPath.slice("skills/".length)} 0`),
    );
    expect(await t.app.db.$count(workspaceSkills)).toBe(2);
  });

  it("says a tree with SKILL.md at its top is one skill folder", async () => {
    await holdTwo();
    const res = await syncJson([
      { path: "SKILL.md", content: skillMd("deploy", "Deploys. Use when shipping.") },
      { path: "scripts/deploy.sh", content: "echo deploy\n" },
    ]);
    expect([res.status, await errorOf(res)]).toEqual([
      409,
      {
        code: "EmptyTree",
        message:
          REFUSED(2) +
          "Its SKILL.md sits at the top of the tree, so the tree is one skill folder: sync the folder that holds it instead." +
          ON_PURPOSE,
      },
    ]);
  });

  it("names the skill folders below a top-level folder that has no SKILL.md: anthropics/skills' skills/", async () => {
    const res = await syncJson(layoutFiles(ANTHROPIC_SKILLS));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.changes).toEqual({ added: [], updated: [], unchanged: [], removed: [] });
    expect(body.invalid).toEqual([
      {
        folder: "skills",
        errors: [`folder "skills" has no SKILL.md, but 17 skill folder(s) ${DEEPER}: 17 in skills/. Sync skills/ itself instead.`],
      },
      { folder: "spec", errors: ['folder "spec" has no SKILL.md; every skill folder needs one'] },
      { folder: "template", errors: ['name "template-skill" must equal its folder name "template"'] },
    ]);
    expect(body.ignored).toEqual([".claude-plugin/", "README.md", "THIRD_PARTY_NOTICES.md"]);
  });

  it("names the 832 skill folders one level down in a folder sent instead of them", async () => {
    const catalog = Array.from({ length: 832 }, (_, i) => {
      const name = `skill-${String(i).padStart(3, "0")}`;
      return { path: `catalog/${name}/SKILL.md`, content: skillMd(name, `Does ${name}. Use when asked.`) };
    });
    const below = `832 skill folder(s) ${DEEPER}: 832 in catalog/. Sync catalog/ itself instead.`;
    const res = await syncJson(catalog);
    expect(res.status).toBe(200);
    expect((await res.json()).invalid).toEqual([{ folder: "catalog", errors: [`folder "catalog" has no SKILL.md, but ${below}`] }]);
    const strict = await syncJson(catalog, "?strict=true");
    expect([strict.status, (await errorOf(strict)).message]).toEqual([
      400,
      `invalid skill: 1 folder(s) break hard rules, so nothing changed:\n[invalid] catalog: folder "catalog" has no SKILL.md, but ${below}`,
    ]);
    await holdTwo();
    const refused = await syncJson(catalog);
    expect([refused.status, (await errorOf(refused)).message]).toEqual([409, `${REFUSED(2)}Its ${below}${ON_PURPOSE}`]);
  });
});
