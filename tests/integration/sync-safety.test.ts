import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  listingSnapshots,
  skillEvents,
  teams,
  workspaceSkillFiles,
  workspaceSkills,
  workspaceSkillVersions,
  workspaceStagedVersions,
} from "@/db/schema";
import { deleteAbandonedStaging } from "@/lib/skills/sync";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * Issue 23: a sync cannot empty a catalog by mistake, can be tried without writing, and is all or
 * nothing (§11.1). The tree is a real repository's layout: every skill under `.claude/skills/`.
 */

const SKILLS = ["api-review", "db-migrations", "release-notes"];

/** A repository as teams keep one: a README, source code, and the skills in a hidden folder. */
function writeRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skillgate-repo-"));
  const write = (rel: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };
  write("README.md", "# Service\n");
  write("src/index.ts", "export {};\n");
  write(".git/HEAD", "ref: refs/heads/main\n");
  for (const name of SKILLS) write(`.claude/skills/${name}/SKILL.md`, skillMd(name, `Handles ${name}. Use when ${name} comes up.`));
  return dir;
}

const EMPTY_TREE_MESSAGE =
  "the tree holds no skill folder (a folder with a SKILL.md), so this sync would remove all 3 workspace skill folder(s); nothing changed. " +
  "Its 3 SKILL.md file(s) sit under .claude/skills/, which the filter ignores (hidden folders are not content): " +
  "sync that folder itself, e.g. skillgate sync <repository>/.claude/skills/. " +
  "To empty the workspace on purpose, send ?allowEmpty=true (skillgate sync --allow-empty).";

describe.each(testDbKinds)("a sync that would empty the workspace, or only says what it would do, on %s", (kind) => {
  const t = useTestApp(kind);
  const repository = writeRepository();
  afterAll(() => rmSync(repository, { recursive: true, force: true }));

  const syncJson = (files: { path: string; content: string }[], query = "") =>
    t.call("POST", `/api/v1/skills/sync${query}`, { json: { files } });
  const syncTar = (dir: string, query = "") => {
    const tar = spawnSync("tar", ["czf", "-", "-C", dir, "."]);
    return t.call("POST", `/api/v1/skills/sync${query}`, {
      body: new Uint8Array(tar.stdout),
      headers: { "content-type": "application/gzip" },
    });
  };
  const skillFile = (name: string, body?: string) => ({
    path: `${name}/SKILL.md`,
    content: skillMd(name, `Handles ${name}. Use when ${name} comes up.`, body),
  });
  /** What a sync writes: versions, served skills, files, events, listing snapshots and the catalog's revision. */
  const written = async () => ({
    versions: await t.app.db.$count(workspaceSkillVersions),
    skills: await t.app.db.$count(workspaceSkills),
    files: await t.app.db.$count(workspaceSkillFiles),
    staged: await t.app.db.$count(workspaceStagedVersions),
    snapshots: await t.app.db.$count(listingSnapshots),
    events: await t.app.db.$count(skillEvents),
    revision: (await t.app.db.select({ r: teams.catalogRevision }).from(teams).where(eq(teams.id, t.alpha.team.id)))[0]!.r,
  });

  beforeEach(async () => {
    const res = await syncJson(SKILLS.map((name) => skillFile(name)));
    expect(res.status).toBe(200);
  });

  it("refuses a repository whose skills sit under .claude/skills, as JSON and as a tar, saying how many it would remove; nothing changes", async () => {
    const before = await written();
    const asTar = await syncTar(repository);
    expect([asTar.status, await errorOf(asTar)]).toEqual([409, { code: "EmptyTree", message: EMPTY_TREE_MESSAGE }]);
    const asJson = await syncJson([
      { path: "README.md", content: "# Service\n" },
      { path: "src/index.ts", content: "export {};\n" },
      ...SKILLS.map((name) => ({ ...skillFile(name), path: `.claude/skills/${name}/SKILL.md` })),
    ]);
    expect([asJson.status, await errorOf(asJson)]).toEqual([409, { code: "EmptyTree", message: EMPTY_TREE_MESSAGE }]);
    const dryRun = await syncTar(repository, "?dryRun=true");
    expect([dryRun.status, (await errorOf(dryRun)).code]).toEqual([409, "EmptyTree"]);
    expect(await written()).toEqual(before);
    expect(await (await t.call("GET", "/api/v1/skills/api-review")).text()).toMatch(
      /^\[skill api-review \| file \| v1 \| skills\/api-review\]\n/,
    );

    // Sent as the folder that holds them, the same skills sync as they are: nothing changes.
    const right = await syncTar(path.join(repository, ".claude/skills"));
    expect((await right.json()).changes).toEqual({ added: [], updated: [], unchanged: SKILLS, removed: [] });
  });

  it("empties the workspace on purpose with ?allowEmpty=true, and takes an empty tree when there is nothing to remove", async () => {
    const nothing = await syncJson([{ path: "README.md", content: "# nothing\n" }]);
    expect([nothing.status, (await errorOf(nothing)).message]).toEqual([
      409,
      "the tree holds no skill folder (a folder with a SKILL.md), so this sync would remove all 3 workspace skill folder(s); nothing changed. To empty the workspace on purpose, send ?allowEmpty=true (skillgate sync --allow-empty).",
    ]);
    const emptied = await syncJson([], "?allowEmpty=true");
    expect(emptied.status).toBe(200);
    expect((await emptied.json()).changes).toEqual({ added: [], updated: [], unchanged: [], removed: SKILLS });
    expect(await t.app.db.$count(workspaceSkills)).toBe(0);
    // Nothing left to lose: an empty tree is no mistake now.
    expect((await syncJson([])).status).toBe(200);
  });

  it("answers a dry run with what would be added, updated, removed, refused and ignored, and writes nothing", async () => {
    const before = await written();
    const tree = [
      skillFile("api-review", "# api-review, second edition\n"),
      skillFile("db-migrations"),
      skillFile("incident-notes"),
      { path: "broken/SKILL.md", content: "---\nname: broken\n---\nno description\n" },
      { path: "README.md", content: "# skills\n" },
    ];
    const res = await syncJson(tree, "?dryRun=true");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      dryRun: true,
      changes: { added: ["incident-notes"], updated: ["api-review"], unchanged: ["db-migrations"], removed: ["release-notes"] },
      invalid: [{ folder: "skills/broken", errors: ['description of "broken" is required'] }],
      ignored: ["README.md"],
    });
    // The catalog as it is: the dry run changed nothing of it.
    expect(body.skills.filter((s: { scope: string }) => s.scope === "workspace").map((s: { name: string }) => s.name)).toEqual(SKILLS);
    expect(await written()).toEqual(before);
    // The real sync does what the dry run said.
    const real = await (await syncJson(tree)).json();
    expect([real.dryRun, real.changes, real.invalid]).toEqual([false, body.changes, body.invalid]);
  });

  it("leaves no version, file or event of a sync whose switch fails, and the next sync numbers on from what is visible", async () => {
    // The switch cannot write the new supporting file: everything the sync wrote before it must go too.
    await t.app.db.execute(sql`create function refuse_file() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`);
    await t.app.db.execute(
      sql`create trigger refuse_file before insert on workspace_skill_files for each row execute function refuse_file()`,
    );
    const before = await written();
    const changed = [
      skillFile("api-review", "# api-review v2\n"),
      { path: "api-review/notes.md", content: "notes\n" },
      skillFile("db-migrations"),
      skillFile("release-notes"),
    ];
    try {
      const failed = await syncJson(changed);
      expect(failed.status).toBe(500);
    } finally {
      await t.app.db.execute(sql`drop trigger refuse_file on workspace_skill_files`);
      await t.app.db.execute(sql`drop function refuse_file`);
    }
    expect(await written()).toEqual(before);
    const versions = await (await t.call("GET", "/api/v1/skills/api-review/versions")).json();
    expect(versions.versions.map((v: { version: number }) => v.version)).toEqual([1]);
    const v2 = await t.call("GET", "/api/v1/skills/api-review?version=2");
    expect(v2.status).toBe(404);

    const retried = await syncJson([...changed, skillFile("incident-notes")]);
    expect((await retried.json()).changes).toMatchObject({ added: ["incident-notes"], updated: ["api-review"] });
    // Each name numbers its own versions: the new folder starts at v1 whatever the others are at.
    expect((await t.call("GET", "/api/v1/skills/incident-notes")).headers.get("x-skill-version")).toBe("1");
    expect(await (await t.call("GET", "/api/v1/skills/api-review")).text()).toBe(
      "[skill api-review | file | v2 | skills/api-review]\n# api-review v2\n",
    );
    expect(await t.app.db.$count(workspaceStagedVersions)).toBe(0);
  });

  it("deletes the staged text a crashed sync left, once it is an hour old, and no reader ever sees it", async () => {
    const staged = (syncId: string, hoursAgo: number) => ({
      syncId,
      teamId: t.alpha.team.id,
      name: "api-review",
      frontmatter: "---\nname: api-review\ndescription: Staged. Use when crashed.\n---\n",
      body: "# staged\n",
      sha256: "0".repeat(64),
      treeSha256: "0".repeat(64),
      stagedAt: new Date(Date.now() - hoursAgo * 3600_000),
    });
    await t.app.db.insert(workspaceStagedVersions).values([staged("crashed", 2), staged("running", 0)]);
    expect(((await (await t.call("GET", "/api/v1/skills/api-review/versions")).json()).versions as unknown[]).length).toBe(1);
    await deleteAbandonedStaging(t.app.db);
    expect((await t.app.db.select({ id: workspaceStagedVersions.syncId }).from(workspaceStagedVersions)).map((row) => row.id)).toEqual([
      "running",
    ]);
  });
});
