import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
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
import { waitFor } from "../helpers/wait";
import { skillMd } from "../helpers/skills";

/**
 * Issue 23: a sync cannot empty a catalog by mistake, can be tried without writing, and is all or
 * nothing (docs/api.md#shapes). The tree is a real repository's layout: every skill under `.claude/skills/`.
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
  "Its 3 skill folder(s) sit deeper than a sync reads (the folders at the top of the tree): 3 in .claude/skills/. Sync .claude/skills/ itself instead. " +
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
      invalid: [{ folder: "broken", errors: ['description of "broken" is required'] }],
      ignored: ["README.md"],
    });
    // The catalog the tree would make (issue 39); the team's own is untouched.
    type Entry = { scope: string; name: string; status: string; version: number | null };
    const workspace = (skills: Entry[]) => skills.filter((s) => s.scope === "workspace").map((s) => `${s.name} ${s.status} v${s.version}`);
    expect(workspace(body.skills)).toEqual([
      "api-review active v2",
      "db-migrations active v1",
      "incident-notes active v1",
      "broken invalid vnull",
    ]);
    expect(workspace((await (await t.call("GET", "/api/v1/skills")).json()).skills)).toEqual(SKILLS.map((name) => `${name} active v1`));
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
    await deleteAbandonedStaging(t.app.db, t.app.catalogs.leftoverSyncs);
    expect((await t.app.db.select({ id: workspaceStagedVersions.syncId }).from(workspaceStagedVersions)).map((row) => row.id)).toEqual([
      "running",
    ]);
  });
});

/**
 * Issue 38, point 6: a sync that fails after staging leaves none of its staged rows, whatever ended
 * it. Here the database goes away in the middle of the switch (the trigger raises PostgreSQL's
 * `admin_shutdown`, as a server stopping does): the sync answers 503, and on a server the driver's
 * breaker then refuses queries for a moment — the moment the sync's own cleanup used to fall in.
 * What the sync left is read from outside the app, past its breaker.
 */
describe.each(testDbKinds)("a sync the database fails in the middle of, on %s", (kind) => {
  const t = useTestApp(kind);
  const FOLDERS = Array.from({ length: 12 }, (_, i) => `skill-${String(i).padStart(2, "0")}`);
  let outside: { query(text: string): Promise<Record<string, unknown>[]>; close(): Promise<void> };

  beforeEach(async () => {
    outside = await connectOutside(t.app.database);
    await outside.query(`create sequence staged_rows`);
    await outside.query(`create function count_staged() returns trigger language plpgsql as $$
      begin perform nextval('staged_rows'); return new; end $$`);
    await outside.query(
      `create trigger count_staged after insert on workspace_staged_versions for each row execute function count_staged()`,
    );
    await outside.query(`create function server_goes_away() returns trigger language plpgsql as $$
      begin raise exception 'terminating connection due to administrator command' using errcode = '57P01'; end $$`);
    await outside.query(
      `create trigger server_goes_away before insert or update on workspace_skills for each row execute function server_goes_away()`,
    );
  });
  afterEach(async () => {
    await outside.query(`drop trigger server_goes_away on workspace_skills`);
    await outside.query(`drop function server_goes_away`);
    await outside.query(`drop trigger count_staged on workspace_staged_versions`);
    await outside.query(`drop function count_staged`);
    await outside.query(`drop sequence staged_rows`);
    await outside.close();
  });

  const count = async (table: string) => Number((await outside.query(`select count(*)::int as n from ${table}`))[0]!.n);
  const stagedEver = async () =>
    Number((await outside.query(`select case when is_called then last_value else 0 end as n from staged_rows`))[0]!.n);

  it("deletes what it staged before it answers 503, and after a second failure too", async () => {
    const files = FOLDERS.map((name) => ({
      path: `${name}/SKILL.md`,
      content: skillMd(name, `Handles ${name}. Use when ${name} comes up.`),
    }));
    const versionsBefore = await count("workspace_skill_versions");
    for (const attempt of [1, 2]) {
      const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
      expect([res.status, res.headers.get("retry-after"), await errorOf(res)], `attempt ${attempt}`).toEqual([
        503,
        "5",
        { code: "DatabaseUnavailable", message: "the database is unavailable; try again shortly" },
      ]);
      // It got as far as the switch: every folder was staged, and none of it is left.
      expect([await stagedEver(), await count("workspace_staged_versions")], `attempt ${attempt}`).toEqual([FOLDERS.length * attempt, 0]);
    }
    expect(await count("workspace_skill_versions")).toBe(versionsBefore);
  });

  it("leaves what it could not delete, the database still failing, to the instance's next tick, not to the hour", async () => {
    const files = FOLDERS.map((name) => ({
      path: `${name}/SKILL.md`,
      content: skillMd(name, `Handles ${name}. Use when ${name} comes up.`),
    }));
    await outside.query(`create function keep_staged() returns trigger language plpgsql as $$
      begin raise exception 'the database is still failing'; end $$`);
    await outside.query(
      `create trigger keep_staged before delete on workspace_staged_versions for each row execute function keep_staged()`,
    );
    try {
      const res = await t.call("POST", "/api/v1/skills/sync", { json: { files } });
      expect([res.status, (await errorOf(res)).code]).toEqual([503, "DatabaseUnavailable"]);
      expect(await count("workspace_staged_versions")).toBe(FOLDERS.length);
    } finally {
      await outside.query(`drop trigger keep_staged on workspace_staged_versions`);
      await outside.query(`drop function keep_staged`);
    }
    // Another sync's text, staged a moment ago, is not this instance's to delete.
    await outside.query(`insert into workspace_staged_versions (sync_id, team_id, name, frontmatter, body, sha256, tree_sha256)
      values ('running', ${t.alpha.team.id}, 'other', '', '', '${"0".repeat(64)}', '${"0".repeat(64)}')`);
    // The tick, tried again as the instance's tick is, until the database takes it (on a server, past the breaker's moment).
    await waitFor(
      () =>
        deleteAbandonedStaging(t.app.db, t.app.catalogs.leftoverSyncs).then(
          () => true,
          () => false,
        ),
      {
        what: "the tick's cleanup to get through",
        intervalMs: 100,
      },
    );
    expect((await outside.query(`select sync_id from workspace_staged_versions`)).map((row) => row.sync_id)).toEqual(["running"]);
  });
});

/** A connection to the test's database that is not the app's: its breaker does not stand in the way. */
async function connectOutside(
  database: Database,
): Promise<{ query(text: string): Promise<Record<string, unknown>[]>; close(): Promise<void> }> {
  if (database.kind === "pglite") return { query: (text) => database.query(text, []), close: async () => {} };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database.location.split("/")[1]}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return { query: async (text) => (await client.query(text)).rows, close: () => client.end() };
}
