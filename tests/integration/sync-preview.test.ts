import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceInvalidFolders, workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { main } from "@/cli/main";
import { FIXTURES, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";
import { skillMd } from "../helpers/skills";

/**
 * Issue 39 (8): a dry run answers what the real sync then answers — the catalog the tree would
 * make, not today's — and `skillgate sync --dry-run` prints its diagnostics.
 */

type File = { path: string; content: string };

/** The workspace before the preview: a skill with a warning the tree drops, one it changes, one it keeps, one it breaks. */
const FIRST_TREE: File[] = [
  {
    path: "old-notes/SKILL.md",
    content: skillMd("old-notes", "Old notes. Use when looking back.", "# old\n", 'argument-hint: "[when]"\n'),
  },
  { path: "api-review/SKILL.md", content: skillMd("api-review", "Reviews APIs. Use when an endpoint changes.", "# v1\n") },
  { path: "db-migrations/SKILL.md", content: skillMd("db-migrations", "Reviews migrations. Use when the schema changes.") },
  { path: "release-notes/SKILL.md", content: skillMd("release-notes", "Writes release notes. Use when shipping.", "# v1\n") },
];

/**
 * The tree previewed, then synced: old-notes leaves (its warning with it), api-review changes and
 * gains a field outside the spec, release-notes loses its description (v1 keeps serving), three
 * folders take names a built-in, a global and a learned skill hold, one is new with a metadata
 * number, and two folders break hard rules.
 */
const TREE: File[] = [
  {
    path: "api-review/SKILL.md",
    content: skillMd("api-review", "Reviews APIs. Use when an endpoint changes.", "# v2\n", "disable-model-invocation: true\n"),
  },
  FIRST_TREE[2]!,
  { path: "release-notes/SKILL.md", content: "---\nname: release-notes\n---\n# v2 lost its description\n" },
  { path: "systematic-debugging/SKILL.md", content: skillMd("systematic-debugging", "Our debugging. Use when stuck.") },
  { path: "ci-green-gate/SKILL.md", content: skillMd("ci-green-gate", "Our CI rules. Use when CI is red.") },
  { path: "handoff-notes/SKILL.md", content: skillMd("handoff-notes", "Hands work over. Use when leaving for the day.") },
  { path: "onboarding/SKILL.md", content: skillMd("onboarding", "Onboards. Use when someone joins.", "# hi\n", "metadata:\n  level: 2\n") },
  { path: "Bad_Folder/SKILL.md", content: "---\nname: Bad_Folder\n---\nx\n" },
  { path: "drafts/notes.md", content: "notes\n" },
  { path: "README.md", content: "# skills\n" },
];

const DIAGNOSTICS = [
  "[collision] ci-green-gate (file skills/ci-green-gate) shadowed by file global/ci-green-gate",
  "[collision] handoff-notes (learned) shadowed by file skills/handoff-notes",
  "[collision] systematic-debugging (file skills/systematic-debugging) shadowed by builtin",
  '[invalid] global/broken-one: name "Broken_One" may hold only lowercase letters, digits and hyphens',
  '[invalid] Bad_Folder: name "Bad_Folder" may hold only lowercase letters, digits and hyphens',
  '[invalid] Bad_Folder: description of "Bad_Folder" is required',
  '[invalid] drafts: folder "drafts" has no SKILL.md; every skill folder needs one',
  '[invalid] release-notes: description of "release-notes" is required',
  '[warning] api-review: frontmatter field "disable-model-invocation" is not in the Agent Skills spec (kept)',
  '[warning] onboarding: metadata.level is not a string; read as "2"',
];

describe.each(testDbKinds)("a sync preview on %s", (kind) => {
  const t = useTestApp(kind, { globalSkillsDir: path.join(FIXTURES, "global-skills") });
  const sync = (files: File[], query = "") => t.call("POST", `/api/v1/skills/sync${query}`, { json: { files } });

  beforeEach(async () => {
    const learned = await t.call("POST", "/api/v1/skills", {
      json: { name: "handoff-notes", description: "Learned handoffs. Use when leaving.", body: "# learned\n", status: "active" },
    });
    expect(learned.status).toBe(201);
    expect((await sync(FIRST_TREE)).status).toBe(200);
  });

  it("answers the skills, diagnostics, invalid folders, ignored paths and changes the real sync then answers", async () => {
    const written = async () => [
      await t.app.db.$count(workspaceSkillVersions),
      await t.app.db.$count(workspaceSkills),
      await t.app.db.$count(workspaceInvalidFolders),
    ];
    const before = await written();
    const dry = await sync(TREE, "?dryRun=true");
    expect(dry.status).toBe(200);
    const preview = await dry.json();
    expect(await written()).toEqual(before);
    expect(preview.dryRun).toBe(true);
    expect(preview.diagnostics).toEqual(DIAGNOSTICS);
    expect(preview.changes).toEqual({
      added: ["ci-green-gate", "handoff-notes", "onboarding", "systematic-debugging"],
      updated: ["api-review"],
      unchanged: ["db-migrations"],
      removed: ["old-notes"],
    });
    const workspace = (body: { skills: { scope: string; name: string; status: string; version: number | null }[] }) =>
      body.skills.filter((skill) => skill.scope === "workspace").map((skill) => `${skill.name} ${skill.status} v${skill.version}`);
    expect(workspace(preview)).toEqual([
      "api-review active v2",
      "db-migrations active v1",
      "handoff-notes active v1",
      "onboarding active v1",
      "release-notes active v1",
      "ci-green-gate shadowed v1",
      "systematic-debugging shadowed v1",
      "Bad_Folder invalid vnull",
      "drafts invalid vnull",
      "release-notes invalid vnull",
    ]);

    const res = await sync(TREE);
    expect(res.status).toBe(200);
    const real = await res.json();
    expect(real.dryRun).toBe(false);
    const { dryRun: _dry, ...previewed } = preview;
    const { dryRun: _real, ...synced } = real;
    expect(previewed).toEqual(synced);
    const after = await (await t.call("GET", "/api/v1/skills")).json();
    expect([after.skills, after.diagnostics]).toEqual([preview.skills, preview.diagnostics]);
  });

  describe("through the CLI", () => {
    let bridge: HttpBridge;
    let dir: string;
    beforeEach(async () => {
      bridge = await httpBridge();
      dir = mkdtempSync(path.join(tmpdir(), "skillgate-preview-"));
      for (const file of TREE) {
        mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
        writeFileSync(path.join(dir, file.path), file.content);
      }
    });
    afterEach(async () => {
      await bridge.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("prints the diagnostics the tree would give with --dry-run, then the same ones when it syncs", async () => {
      const run = async (...flags: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const env = { NODE_ENV: "test" as const, SKILLGATE_URL: bridge.url, SKILLGATE_API_KEY: t.alpha.key };
        const code = await main(
          ["sync", dir, ...flags],
          env,
          (line) => out.push(line),
          (line) => err.push(line),
        );
        return { code, out, err };
      };
      const dry = await run("--dry-run");
      expect(dry).toEqual({
        code: 0,
        out: [
          "added: ci-green-gate, handoff-notes, onboarding, systematic-debugging",
          "updated: api-review",
          "unchanged: db-migrations",
          "removed: old-notes",
          "ignored: README.md",
          ...DIAGNOSTICS,
          "dry run: would sync 6 skill folder(s); 3 invalid, not served as they are; nothing written",
        ],
        err: [],
      });
      const real = await run();
      expect(real.out.slice(5)).toEqual([...DIAGNOSTICS, "synced 6 skill folder(s); 3 invalid, not served as they are"]);
    });
  });
});
