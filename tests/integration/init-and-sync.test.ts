import { and, eq, max } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, memberships, teams, users, workspaceSkills, workspaceSkillVersions } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { verifyCredentials } from "@/lib/auth/users";
import { readEnv } from "@/lib/env";
import { applyInitConfig } from "@/lib/teams/init";
import { useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

describe.each(testDbKinds)("headless start-up and concurrent syncs on %s", (kind) => {
  const t = useTestApp(kind);

  it("makes sure each listed team has its admin key and each listed user is lead of every team, idempotently", async () => {
    const env = readEnv({
      SKILLGATE_INIT_TEAM: "red, blue",
      SKILLGATE_INIT_API_KEY: "sg_red_key_0123456789,sg_blue_key_0123456789",
      SKILLGATE_INIT_USER_EMAIL: "Lead@Example.com,second@example.com",
      SKILLGATE_INIT_USER_PASSWORD: "correct horse,battery staple",
    });
    await applyInitConfig(t.app.db, env.init);
    await applyInitConfig(t.app.db, env.init);
    const red = await t.app.keys.authenticate("sg_red_key_0123456789");
    const blue = await t.app.keys.authenticate("sg_blue_key_0123456789");
    expect(red?.team.slug).toBe("red");
    expect(blue?.team.slug).toBe("blue");
    expect(red?.scopes).toEqual(["read", "write", "admin"]);
    expect(await t.app.db.$count(apiKeys, eq(apiKeys.teamId, red!.team.id))).toBe(1);
    const lead = await verifyCredentials(t.app.db, "lead@example.com", "correct horse");
    expect(lead?.email).toBe("lead@example.com");
    expect(await verifyCredentials(t.app.db, "lead@example.com", "wrong")).toBeNull();
    expect(await verifyCredentials(t.app.db, "nobody@example.com", "correct horse")).toBeNull();
    const roles = await t.app.db
      .select({ team: teams.slug, email: users.email, role: memberships.role })
      .from(memberships)
      .innerJoin(teams, eq(teams.id, memberships.teamId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .orderBy(teams.slug, users.email);
    expect(roles).toEqual([
      { team: "blue", email: "lead@example.com", role: "lead" },
      { team: "blue", email: "second@example.com", role: "lead" },
      { team: "red", email: "lead@example.com", role: "lead" },
      { team: "red", email: "second@example.com", role: "lead" },
    ]);
    const stored = await t.app.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, "lead@example.com"));
    expect(stored[0]!.hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    const keyRows = await t.app.db.select({ hash: apiKeys.keyHash }).from(apiKeys);
    expect(keyRows.some((row) => row.hash?.includes("sg_red_key"))).toBe(false);
  });

  it('names start-up keys "start-up key" and renames those made under the variable\'s name, idempotently', async () => {
    const env = readEnv({ SKILLGATE_INIT_TEAM: "red", SKILLGATE_INIT_API_KEY: "sg_red_key_0123456789" });
    await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "SKILLGATE_INIT_API_KEY", scopes: ["admin"] });
    await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "ci-runner", scopes: ["write"] });
    const names = async () =>
      (await t.app.db.select({ team: teams.slug, name: apiKeys.name }).from(apiKeys).innerJoin(teams, eq(teams.id, apiKeys.teamId)))
        .map((row) => `${row.team}: ${row.name}`)
        .sort();
    const before = await names();
    await applyInitConfig(t.app.db, env.init);
    const once = await names();
    await applyInitConfig(t.app.db, env.init);
    expect(await names()).toEqual(once);
    expect(once).toEqual(
      [...before.filter((n) => !n.endsWith(": SKILLGATE_INIT_API_KEY")), `${t.alpha.team.slug}: start-up key`, "red: start-up key"].sort(),
    );
    expect(before).toContain(`${t.alpha.team.slug}: SKILLGATE_INIT_API_KEY`);
  });

  it("refuses start-up lists of unequal length", () => {
    expect(() => readEnv({ SKILLGATE_INIT_TEAM: "a,b", SKILLGATE_INIT_API_KEY: "k1" })).toThrow(
      "configuration: SKILLGATE_INIT_API_KEY lists 1 keys for 2 teams in SKILLGATE_INIT_TEAM; give one key per team",
    );
  });

  it("applies concurrent syncs one whole tree at a time: the result is exactly one of them", async () => {
    const tree = (tag: string, names: string[]) =>
      names.map((name) => ({ path: `${name}/SKILL.md`, content: skillMd(name, `Tree ${tag}. Use when testing.`, `${tag}\n`) }));
    const trees = [tree("a", ["one", "two", "three"]), tree("b", ["two", "four"]), tree("c", ["five"]), tree("d", ["one", "five", "six"])];
    const results = await Promise.all(trees.map((files) => t.call("POST", "/api/v1/skills/sync", { json: { files } })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rows = await t.app.db
      .select({ name: workspaceSkills.name, description: workspaceSkills.description })
      .from(workspaceSkills)
      .where(eq(workspaceSkills.teamId, t.alpha.team.id))
      .orderBy(workspaceSkills.name);
    const tags = new Set(rows.map((row) => row.description));
    expect(tags.size).toBe(1);
    const tag = [...tags][0]!.slice(5, 6);
    const expected = trees[["a", "b", "c", "d"].indexOf(tag)]!.map((f) => f.path.split("/")[0]).sort();
    expect(rows.map((row) => row.name)).toEqual(expected);
  });

  it("numbers versions upward and points each skill at its own content when syncs of the same folders race", async () => {
    const tree = (tag: string) =>
      ["one", "two", "three"].map((name) => ({
        path: `${name}/SKILL.md`,
        content: skillMd(name, `Tree ${tag}. Use when testing.`, `${tag}\n`),
      }));
    // Twice each of three trees, all at once: some syncs find their tree already served by a twin.
    const results = await Promise.all(
      ["a", "b", "c", "a", "b", "c"].map((tag) => t.call("POST", "/api/v1/skills/sync", { json: { files: tree(tag) } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const served = await t.app.db
      .select({
        name: workspaceSkills.name,
        version: workspaceSkills.currentVersion,
        description: workspaceSkills.description,
        body: workspaceSkillVersions.body,
      })
      .from(workspaceSkills)
      .innerJoin(
        workspaceSkillVersions,
        and(
          eq(workspaceSkillVersions.teamId, workspaceSkills.teamId),
          eq(workspaceSkillVersions.name, workspaceSkills.name),
          eq(workspaceSkillVersions.version, workspaceSkills.currentVersion),
        ),
      )
      .where(eq(workspaceSkills.teamId, t.alpha.team.id))
      .orderBy(workspaceSkills.name);
    expect(served.map((row) => row.name)).toEqual(["one", "three", "two"]);
    for (const row of served) expect(row.body).toBe(`${row.description.slice(5, 6)}\n`);
    const versions = await t.app.db
      .select({ name: workspaceSkillVersions.name, latest: max(workspaceSkillVersions.version) })
      .from(workspaceSkillVersions)
      .where(eq(workspaceSkillVersions.teamId, t.alpha.team.id))
      .groupBy(workspaceSkillVersions.name)
      .orderBy(workspaceSkillVersions.name);
    // The served version is the newest: none staged by a sync that lost its turn is left above it.
    expect(versions.map((row) => [row.name, row.latest])).toEqual(served.map((row) => [row.name, row.version]));
  });
});
