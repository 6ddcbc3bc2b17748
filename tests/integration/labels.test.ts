import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { learnedSkillLabels, skillEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { errorOf, useTestApp } from "../helpers/app";
import { useMcpClients } from "../helpers/mcp-client";
import { learnedAtVersions } from "../helpers/skills";
import { testDbKinds } from "../helpers/db";

/**
 * Labels beyond one pin (docs/learned-skills.md#labels): a lead puts named labels on versions of a learned skill; a reader
 * that asks for a label gets, for every skill, the labelled version or the default (pinned, else
 * latest). REST, MCP and install links alike; each move is a history event.
 */
describe.each(testDbKinds)("labels on %s", (kind) => {
  const t = useTestApp(kind);
  const mcp = useMcpClients("labels-test");

  /** release-notes at v1, v2 and v3, each with its own description; deploy-guide at v1 only. */
  const threeVersions = async () => {
    await learnedAtVersions(t.call, "release-notes", 3);
    const other = await t.call("POST", "/api/v1/skills", {
      json: { name: "deploy-guide", description: "Deploys the service. Use when releasing.", body: "# deploy\n", status: "active" },
    });
    expect(other.status).toBe(201);
  };

  const put = (label: string, version: number, key?: string) =>
    t.call("PUT", `/api/v1/skills/release-notes/labels/${label}`, { json: { version }, ...(key && { key }) });
  const viewText = async (url: string) => (await t.call("GET", url)).text();

  it("serves the labelled version to readers that ask for the label, the default to the rest, over REST", async () => {
    await threeVersions();
    expect(await (await put("staging", 2)).json()).toEqual({
      name: "release-notes",
      label: "staging",
      version: 2,
      served: { version: 3, why: "latest" },
    });
    expect(await viewText("/api/v1/skills/release-notes?label=staging")).toBe("[skill release-notes | learned | v2]\n# v2\n");
    expect(await viewText("/api/v1/skills/release-notes")).toBe("[skill release-notes | learned | v3]\n# v3\n");
    // A skill without the label gets its default; a label no skill has is a typo, refused (issue 39, point 3).
    expect(await viewText("/api/v1/skills/deploy-guide?label=staging")).toBe("[skill deploy-guide | learned | v1]\n# deploy\n");
    const typo = await t.call("GET", "/api/v1/skills/release-notes?label=canary");
    expect([typo.status, await errorOf(typo)]).toEqual([
      404,
      { code: "LabelNotFound", message: "no skill of this team has the label 'canary'; the team's labels are staging" },
    ]);

    const staging = await viewText("/api/v1/listing?label=staging");
    expect(staging).toContain("- release-notes: Writes release notes, take 2. Use when shipping.");
    expect(staging).toContain("- deploy-guide: Deploys the service. Use when releasing.");
    expect(await viewText("/api/v1/listing")).toContain("- release-notes: Writes release notes, take 3. Use when shipping.");
    expect(await viewText("/api/v1/listing?full=true&label=staging")).toContain(
      "- release-notes: Writes release notes, take 2. Use when shipping.",
    );

    // The pin is the default every reader without the label gets; the label still wins for its readers.
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } });
    expect(await viewText("/api/v1/skills/release-notes")).toBe("[skill release-notes | learned | v1]\n# v1\n");
    expect(await viewText("/api/v1/skills/release-notes?label=staging")).toBe("[skill release-notes | learned | v2]\n# v2\n");
    expect(await viewText("/api/v1/skills/deploy-guide?label=staging")).toBe("[skill deploy-guide | learned | v1]\n# deploy\n");

    const versions = (await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json()).versions;
    expect(versions.map((v: { version: number; labels: string[] }) => [v.version, v.labels])).toEqual([
      [1, []],
      [2, ["staging"]],
      [3, []],
    ]);
  });

  it("moves a label, takes it off, and logs each move once as a history event", async () => {
    await threeVersions();
    await put("staging", 2);
    await put("canary", 3);
    // Putting a label where it already is changes nothing and logs nothing.
    const byDefault = { version: 3, why: "latest" };
    expect(await (await put("staging", 2)).json()).toEqual({ name: "release-notes", label: "staging", version: 2, served: byDefault });
    expect(await (await put("staging", 3)).json()).toEqual({ name: "release-notes", label: "staging", version: 3, served: byDefault });
    expect(await viewText("/api/v1/skills/release-notes?label=staging")).toBe("[skill release-notes | learned | v3]\n# v3\n");

    const removed = await t.call("DELETE", "/api/v1/skills/release-notes/labels/staging");
    expect(await removed.json()).toEqual({ name: "release-notes", label: "staging", version: null, was: 3, served: byDefault });
    const again = await t.call("DELETE", "/api/v1/skills/release-notes/labels/staging");
    expect([again.status, await errorOf(again)]).toEqual([
      404,
      { code: "LabelNotFound", message: "'release-notes' has no label 'staging'" },
    ]);

    const events = await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "release-notes"));
    expect(events.filter((e) => e.kind === "labelled" || e.kind === "unlabelled").map((e) => [e.kind, e.version, e.detail])).toEqual([
      ["labelled", 2, { label: "staging", from: null }],
      ["labelled", 3, { label: "canary", from: null }],
      ["labelled", 3, { label: "staging", from: 2 }],
      ["unlabelled", 3, { label: "staging" }],
    ]);
    const history = await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json();
    expect(history.versions.map((v: { labels: string[] }) => v.labels)).toEqual([[], [], ["canary"]]);
  });

  it("refuses what is not a lead's or not a label, with a 4xx that says what to fix and nothing written", async () => {
    await threeVersions();
    const { key: writeKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "writer", scopes: ["write"] });
    const byWriter = await put("staging", 2, writeKey);
    expect(byWriter.status).toBe(403);
    const bad = await put("Staging", 2);
    expect([bad.status, await errorOf(bad)]).toEqual([
      400,
      { code: "InvalidLabel", message: 'invalid label: label "Staging" may hold only lowercase letters, digits and hyphens' },
    ]);
    const missing = await put("staging", 9);
    expect([missing.status, await errorOf(missing)]).toEqual([
      404,
      { code: "VersionNotFound", message: "Error [VersionNotFound]: 'release-notes' has no v9; it is at v3" },
    ]);
    const builtin = await t.call("PUT", "/api/v1/skills/writing-plans/labels/staging", { json: { version: 1 } });
    expect([builtin.status, (await errorOf(builtin)).code]).toEqual([403, "BuiltInImmutable"]);
    const both = await t.call("GET", "/api/v1/skills/release-notes?label=staging&version=1");
    expect([both.status, await errorOf(both)]).toEqual([400, { code: "InvalidQuery", message: "give version or label, not both" }]);
    const badQuery = await t.call("GET", "/api/v1/listing?label=no--pe");
    expect([badQuery.status, (await errorOf(badQuery)).code]).toEqual([400, "InvalidLabel"]);
    expect(await t.app.db.select().from(learnedSkillLabels)).toEqual([]);
  });

  it("16 concurrent moves of one label: each answers 200, the label ends on one version, and the events tell its moves in order", async () => {
    await threeVersions();
    const targets = Array.from({ length: 16 }, (_, i) => (i % 3) + 1);
    const answers = await Promise.all(targets.map((version) => put("staging", version)));
    expect(answers.map((res) => res.status)).toEqual(targets.map(() => 200));
    const rows = await t.app.db.select().from(learnedSkillLabels).where(eq(learnedSkillLabels.label, "staging"));
    expect(rows).toHaveLength(1);
    const events = await t.app.db
      .select()
      .from(skillEvents)
      .where(and(eq(skillEvents.skillName, "release-notes"), eq(skillEvents.kind, "labelled")))
      .orderBy(skillEvents.id);
    // Every event moves the label from where the one before left it; the last names where it is.
    const moves = events.map((e) => [(e.detail as { from: number | null }).from, e.version]);
    moves.forEach(([from], i) => expect(from).toBe(i === 0 ? null : moves[i - 1]![1]));
    expect(moves.at(-1)![1]).toBe(rows[0]!.version);
    expect(await viewText("/api/v1/skills/release-notes?label=staging")).toBe(
      `[skill release-notes | learned | v${rows[0]!.version}]\n# v${rows[0]!.version}\n`,
    );
  });

  it("MCP skill_view and skill_list take a label and answer what REST answers", async () => {
    await threeVersions();
    await put("staging", 2);
    const call = await mcp(t.alpha.key);
    expect(await call("skill_view", { name: "release-notes", label: "staging" })).toEqual({
      text: "[skill release-notes | learned | v2]\n# v2\n",
      isError: false,
      meta: { "skillgate/served": { version: 2, why: "label", label: "staging" } },
    });
    expect(await call("skill_view", { name: "release-notes" })).toEqual({
      text: "[skill release-notes | learned | v3]\n# v3\n",
      isError: false,
      meta: { "skillgate/served": { version: 3, why: "latest" } },
    });
    const listed = await call("skill_list", { label: "staging" });
    expect(listed.text).toBe(await viewText("/api/v1/listing?full=true&label=staging"));
    expect(listed.text).toContain("- release-notes: Writes release notes, take 2. Use when shipping.");
    expect(await call("skill_view", { name: "release-notes", label: "staging", version: 1 })).toEqual({
      text: "give version or label, not both",
      isError: true,
    });
    const bad = await call("skill_list", { label: "Bad" });
    expect(bad).toEqual({ text: 'invalid label: label "Bad" may hold only lowercase letters, digits and hyphens', isError: true });
  });

  it("an install link created for a label installs the labelled versions, and lists its label", async () => {
    await threeVersions();
    await put("staging", 2);
    const made = await t.call("POST", "/api/v1/install-links?label=staging");
    expect(made.status).toBe(201);
    const link = await made.json();
    expect(link.label).toBe("staging");
    const path = new URL(link.url).pathname;
    const index = await (await t.call("GET", `${path}/.well-known/skills/index.json`, { key: null })).json();
    expect(index.skills.find((skill: { name: string }) => skill.name === "release-notes")).toMatchObject({
      version: 2,
      description: "Writes release notes, take 2. Use when shipping.",
    });
    const skillMd = await (await t.call("GET", `${path}/.well-known/skills/release-notes/SKILL.md`, { key: null })).text();
    expect(skillMd.endsWith("---\n# v2\n")).toBe(true);
    // The default link still installs the latest.
    const plain = await (await t.call("POST", "/api/v1/install-links")).json();
    expect(plain.label).toBeNull();
    const plainMd = await (
      await t.call("GET", `${new URL(plain.url).pathname}/.well-known/skills/release-notes/SKILL.md`, { key: null })
    ).text();
    expect(plainMd.endsWith("---\n# v3\n")).toBe(true);
    const list = (await (await t.call("GET", "/api/v1/install-links")).json()).links;
    expect(list.map((l: { id: number; label: string | null }) => [l.id, l.label])).toEqual([
      [plain.id, null],
      [link.id, "staging"],
    ]);
    // Moving the label moves what the link installs.
    await put("staging", 1);
    const moved = await (await t.call("GET", `${path}/.well-known/skills/release-notes/SKILL.md`, { key: null })).text();
    expect(moved.endsWith("---\n# v1\n")).toBe(true);
  });
});
