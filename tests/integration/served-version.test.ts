import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { learnedSkills, learnedSkillVersions, skillEvents } from "@/db/schema";
import { errorOf, useTestApp } from "../helpers/app";
import { useMcpClients } from "../helpers/mcp-client";
import { learnedAtVersions } from "../helpers/skills";
import { testDbKinds } from "../helpers/db";

/**
 * What agents get is one fact (issue 39, docs/learned-skills.md): a rollback under a pin moves the pin (unless
 * kept), every decision's answer says what agents get and why, a label nobody has is a typo, and a
 * lead's decisions carry their reasons — required when the team asks for them.
 */
describe.each(testDbKinds)("the served version on %s", (kind) => {
  const t = useTestApp(kind);

  /** release-notes at v1, v2 and v3, each body and description its own. */
  const threeVersions = () => learnedAtVersions(t.call, "release-notes", 3);
  const view = (query = "") => t.call("GET", `/api/v1/skills/release-notes${query}`);
  const pinnedVersion = async () =>
    (await t.app.db.select({ pinned: learnedSkills.pinnedVersion }).from(learnedSkills).where(eq(learnedSkills.name, "release-notes")))[0]
      ?.pinned;
  const events = async (kinds: string[]) =>
    (await t.app.db.select().from(skillEvents).where(eq(skillEvents.skillName, "release-notes")))
      .filter((event) => kinds.includes(event.kind))
      .map((event) => [event.kind, event.version, event.detail]);

  const connect = useMcpClients("served-version-test");
  const mcp = () => connect(t.alpha.key);

  it("moves the pin with a rollback, so agents get the content rolled back to, on REST and MCP", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2 } });
    const rolled = await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1, reason: "v2 and v3 broke CI" } });
    expect([rolled.status, await rolled.json()]).toEqual([
      200,
      { name: "release-notes", version: 4, revertOf: 1, served: { version: 4, why: "pinned" }, pinMovedFrom: 2 },
    ]);
    const served = await view();
    expect([await served.text(), served.headers.get("x-skill-served-why")]).toEqual([
      "[skill release-notes | learned | v4]\n# v1\n",
      "pinned",
    ]);
    expect(await (await t.call("GET", "/api/v1/listing")).text()).toContain(
      "- release-notes: Writes release notes, take 1. Use when shipping.",
    );
    expect(await pinnedVersion()).toBe(4);
    expect(await events(["rolled-back"])).toEqual([
      ["rolled-back", 4, { revertOf: 1, from: 3, pin: { from: 2, to: 4 }, reason: "v2 and v3 broke CI" }],
    ]);
    const call = await mcp();
    const viewed = await call("skill_view", { name: "release-notes" });
    expect([viewed.text, viewed.meta?.["skillgate/served"]]).toEqual([
      "[skill release-notes | learned | v4]\n# v1\n",
      { version: 4, why: "pinned" },
    ]);
  });

  it("keeps the pin when the rollback asks to, and says agents keep the pinned version", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2 } });
    const rolled = await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1, keepPin: true } });
    expect(await rolled.json()).toEqual({ name: "release-notes", version: 4, revertOf: 1, served: { version: 2, why: "pinned" } });
    expect(await (await view()).text()).toBe("[skill release-notes | learned | v2]\n# v2\n");
    expect(await pinnedVersion()).toBe(2);
    expect(await events(["rolled-back"])).toEqual([["rolled-back", 4, { revertOf: 1, from: 3, keptPin: 2 }]]);
  });

  it("moves the pin to the current version when it already has the content rolled back to; a retry changes nothing", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1 } }); // v4 = v1's content
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2 } });
    const rolled = await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1 } });
    expect(await rolled.json()).toEqual({
      name: "release-notes",
      version: 4,
      unchanged: true,
      served: { version: 4, why: "pinned" },
      pinMovedFrom: 2,
    });
    expect(await (await view()).text()).toBe("[skill release-notes | learned | v4]\n# v1\n");
    const again = await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1 } });
    expect(await again.json()).toEqual({ name: "release-notes", version: 4, unchanged: true, served: { version: 4, why: "pinned" } });
    const versions = await t.app.db.select().from(learnedSkillVersions);
    expect(versions.length).toBe(4);
    expect((await events(["rolled-back"])).map(([, version, detail]) => [version, detail])).toEqual([
      [4, { revertOf: 1, from: 3 }],
      [4, { revertOf: 1, from: 4, unchanged: true, pin: { from: 2, to: 4 } }],
    ]);
  });

  it("of 16 rollbacks at once under a pin, one makes the version and moves the pin; the others change nothing", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2 } });
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1 } }).then((r) => r.json()),
      ),
    );
    expect(answers.filter((answer) => answer.revertOf === 1)).toEqual([
      { name: "release-notes", version: 4, revertOf: 1, served: { version: 4, why: "pinned" }, pinMovedFrom: 2 },
    ]);
    expect(answers.filter((answer) => answer.unchanged === true).length).toBe(15);
    expect(answers.every((answer) => answer.served.version === 4)).toBe(true);
    expect(await pinnedVersion()).toBe(4);
    expect((await events(["rolled-back"])).length).toBe(1);
  });

  it("answers pin, unpin, label, rollback and promote with what agents get and why", async () => {
    await threeVersions();
    const pin = await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } });
    expect(await pin.json()).toEqual({ name: "release-notes", pinnedVersion: 1, served: { version: 1, why: "pinned" } });
    const label = await t.call("PUT", "/api/v1/skills/release-notes/labels/canary", { json: { version: 3 } });
    expect(await label.json()).toEqual({ name: "release-notes", label: "canary", version: 3, served: { version: 1, why: "pinned" } });
    const unlabel = await t.call("DELETE", "/api/v1/skills/release-notes/labels/canary");
    expect(await unlabel.json()).toEqual({
      name: "release-notes",
      label: "canary",
      version: null,
      was: 3,
      served: { version: 1, why: "pinned" },
    });
    const unpin = await t.call("DELETE", "/api/v1/skills/release-notes/pin");
    expect(await unpin.json()).toEqual({ name: "release-notes", pinnedVersion: null, version: 3, served: { version: 3, why: "latest" } });
    await t.call("POST", "/api/v1/skills", {
      json: { name: "triage-notes", description: "Sorts bugs by cause. Use when triaging.", body: "# triage\n" },
    });
    const promoted = await t.call("POST", "/api/v1/skills/triage-notes/promote");
    expect(await promoted.json()).toEqual({ name: "triage-notes", version: 1, status: "active", served: { version: 1, why: "latest" } });
  });

  it("answers an amendment put live under a pin with the pinned version agents keep", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2 } });
    const proposed = await t.call("POST", "/api/v1/skills/release-notes/amendments", {
      json: { body: "# v4\n", rationale: "a fourth take" },
    });
    const { id } = await proposed.json();
    const promoted = await t.call("POST", `/api/v1/amendments/${id}/promote`, { json: { reason: "ship it as it is" } });
    expect([promoted.status, await promoted.json()]).toEqual([
      200,
      { name: "release-notes", version: 4, evaluationId: null, override: true, served: { version: 2, why: "pinned" } },
    ]);
    expect(await (await view()).text()).toBe("[skill release-notes | learned | v2]\n# v2\n");
  });

  it("says which version a reader got and why: label, pinned, latest or requested, on REST, MCP and the listing's JSON", async () => {
    await threeVersions();
    await t.call("PUT", "/api/v1/skills/release-notes/labels/staging", { json: { version: 2 } });
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } });
    const headers = async (query: string) => {
      const res = await view(query);
      return [res.headers.get("x-skill-version"), res.headers.get("x-skill-served-why"), res.headers.get("x-skill-label")];
    };
    expect(await headers("?label=staging")).toEqual(["2", "label", "staging"]);
    expect(await headers("")).toEqual(["1", "pinned", null]);
    expect(await headers("?version=3")).toEqual(["3", "requested", null]);
    // A skill without the label gets its default, and says so.
    const builtin = await t.call("GET", "/api/v1/skills/writing-plans?label=staging");
    expect([builtin.headers.get("x-skill-version"), builtin.headers.get("x-skill-served-why")]).toEqual(["1", "latest"]);

    const json = await (await t.call("GET", "/api/v1/listing?format=json&label=staging")).json();
    const entries = json.groups.flatMap((group: { entries: { name: string; served: unknown }[] }) => group.entries);
    expect(entries.find((entry: { name: string }) => entry.name === "release-notes").served).toEqual({
      version: 2,
      why: "label",
      label: "staging",
    });
    expect(entries.find((entry: { name: string }) => entry.name === "writing-plans").served).toEqual({ version: 1, why: "latest" });
    const skills = (await (await t.call("GET", "/api/v1/skills")).json()).skills;
    expect(skills.find((skill: { name: string }) => skill.name === "release-notes").served).toEqual({ version: 1, why: "pinned" });

    const call = await mcp();
    const labelled = await call("skill_view", { name: "release-notes", label: "staging" });
    expect([labelled.text, labelled.meta?.["skillgate/served"]]).toEqual([
      "[skill release-notes | learned | v2]\n# v2\n",
      { version: 2, why: "label", label: "staging" },
    ]);
    const list = await call("skill_list", { label: "staging" });
    expect(list.meta?.["skillgate/served"]).toEqual({ label: "staging", labelled: { "release-notes": 2 } });
  });

  it("refuses a label that is on no version of any skill of the team, naming the labels it has, on every reader", async () => {
    await threeVersions();
    const none = await t.call("GET", "/api/v1/listing?label=staging");
    expect([none.status, await errorOf(none)]).toEqual([
      404,
      { code: "LabelNotFound", message: "no skill of this team has the label 'staging'; the team has no labels" },
    ]);
    await t.call("PUT", "/api/v1/skills/release-notes/labels/staging", { json: { version: 2 } });
    // A label on a draft is one of the team's labels too.
    await t.call("POST", "/api/v1/skills", {
      json: { name: "draft-notes", description: "Drafts notes. Use when drafting.", body: "# d\n" },
    });
    await t.call("PUT", "/api/v1/skills/draft-notes/labels/canary", { json: { version: 1 } });
    const message = "no skill of this team has the label 'stagin'; the team's labels are canary, staging";
    for (const route of [
      "/api/v1/listing?label=stagin",
      "/api/v1/listing?full=true&label=stagin",
      "/api/v1/skills/release-notes?label=stagin",
      "/api/v1/export?label=stagin",
      "/api/v1/install-links?label=stagin",
    ]) {
      const res = await t.call(route.startsWith("/api/v1/install-links") ? "POST" : "GET", route);
      expect([res.status, await errorOf(res)], route).toEqual([404, { code: "LabelNotFound", message }]);
    }
    expect((await t.call("GET", "/api/v1/install-links")).status).toBe(200);
    expect((await (await t.call("GET", "/api/v1/install-links")).json()).links).toEqual([]);
    const call = await mcp();
    for (const [tool, args] of [
      ["skill_view", { name: "release-notes", label: "stagin" }],
      ["skill_list", { label: "stagin" }],
    ] as const) {
      const result = await call(tool, args);
      expect([result.isError, result.text], tool).toEqual([true, message]);
    }
    // Another team's labels are not this team's.
    const beta = await t.call("GET", "/api/v1/listing?label=staging", { key: t.beta.key });
    expect([beta.status, (await errorOf(beta)).message]).toEqual([
      404,
      "no skill of this team has the label 'staging'; the team has no labels",
    ]);
  });

  it("keeps a lead's reasons with pins, labels and rollbacks, in the history and on the version", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2, reason: "v3 broke the changelog step" } });
    await t.call("PUT", "/api/v1/skills/release-notes/labels/canary", { json: { version: 3, reason: "try v3 on two machines" } });
    await t.call("DELETE", "/api/v1/skills/release-notes/labels/canary", { json: { reason: "canary is over" } });
    await t.call("DELETE", "/api/v1/skills/release-notes/pin", { json: { reason: "v3 is fixed" } });
    await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1, reason: "back to the plain list" } });
    expect(await events(["pinned", "unpinned", "labelled", "unlabelled", "rolled-back"])).toEqual([
      ["pinned", 2, { latest: 3, reason: "v3 broke the changelog step" }],
      ["labelled", 3, { label: "canary", from: null, reason: "try v3 on two machines" }],
      ["unlabelled", 3, { label: "canary", reason: "canary is over" }],
      ["unpinned", 3, { was: 2, reason: "v3 is fixed" }],
      ["rolled-back", 4, { revertOf: 1, from: 3, reason: "back to the plain list" }],
    ]);
    const versions = (await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json()).versions;
    expect(versions.map((v: { version: number; reason: string | null }) => [v.version, v.reason])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [4, "rollback to v1: back to the plain list"],
    ]);
    const history = await (await t.call("GET", "/api/v1/skills/release-notes/versions")).json();
    expect(history.versions[3].revertOf).toBe(1);
  });

  it("asks for a reason with every pin, unpin, label move and rollback once the team's setting says so, and writes nothing without one", async () => {
    await threeVersions();
    const patched = await t.call("PATCH", "/api/v1/settings", { json: { requireReasons: true } });
    expect((await patched.json()).requireReasons).toBe(true);
    expect((await (await t.call("GET", "/api/v1/settings")).json()).requireReasons).toBe(true);
    const refusal = {
      code: "ReasonRequired",
      message: 'Error [ReasonRequired]: this team asks for a reason with every pin, unpin, label move and rollback: send "reason"',
    };
    const refused = [
      await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1 } }),
      await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1, reason: "   " } }),
      await t.call("PUT", "/api/v1/skills/release-notes/labels/staging", { json: { version: 1 } }),
      await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1 } }),
    ];
    for (const res of refused) expect([res.status, await errorOf(res)]).toEqual([400, refusal]);
    expect(await pinnedVersion()).toBe(null);
    expect((await t.app.db.select().from(learnedSkillVersions)).length).toBe(3);
    expect(await events(["pinned", "labelled", "rolled-back"])).toEqual([]);

    expect((await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 1, reason: "hold v1" } })).status).toBe(200);
    expect((await t.call("PUT", "/api/v1/skills/release-notes/labels/staging", { json: { version: 2, reason: "stage v2" } })).status).toBe(
      200,
    );
    // A DELETE with no body is refused the same way, and changes nothing.
    for (const route of ["/api/v1/skills/release-notes/pin", "/api/v1/skills/release-notes/labels/staging"]) {
      const res = await t.call("DELETE", route);
      expect([res.status, await errorOf(res)], route).toEqual([400, refusal]);
    }
    expect(await pinnedVersion()).toBe(1);
    expect((await t.call("GET", "/api/v1/skills/release-notes?label=staging")).headers.get("x-skill-version")).toBe("2");
    expect((await t.call("DELETE", "/api/v1/skills/release-notes/pin", { json: { reason: "done" } })).status).toBe(200);
  });

  it("refuses a reason that is not text, an unknown field, and malformed JSON with a 4xx that says what to fix", async () => {
    await threeVersions();
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/v1/skills/release-notes/pin", { version: 1, reason: 7 }, "InvalidField"],
      ["POST", "/api/v1/skills/release-notes/rollback", { toVersion: 1, keepPin: "yes" }, "InvalidField"],
      ["DELETE", "/api/v1/skills/release-notes/pin", { why: "x" }, "InvalidField"],
    ];
    for (const [method, route, json, code] of cases) {
      const res = await t.call(method, route, { json });
      expect([res.status, (await errorOf(res)).code], route).toEqual([400, code]);
    }
    const garbled = await t.call("DELETE", "/api/v1/skills/release-notes/pin", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect([garbled.status, (await errorOf(garbled)).code]).toEqual([400, "InvalidJson"]);
    expect(await pinnedVersion()).toBe(null);
  });

  it("pins with the pin's author, time and reason kept for the skill page's line", async () => {
    await threeVersions();
    await t.call("POST", "/api/v1/skills/release-notes/pin", { json: { version: 2, reason: "hold v2" } });
    const { pinRecord } = await import("@/lib/learned/served");
    const record = await pinRecord(t.app.db, t.alpha.team.id, "release-notes", 2);
    expect([record?.version, record?.by, record?.reason]).toEqual([2, "key test", "hold v2"]);
    await t.call("POST", "/api/v1/skills/release-notes/rollback", { json: { toVersion: 1, reason: "v1 it is" } });
    const moved = await pinRecord(t.app.db, t.alpha.team.id, "release-notes", 4);
    expect([moved?.version, moved?.reason]).toEqual([4, "v1 it is"]);
    const rows = await t.app.db
      .select({ kind: skillEvents.kind })
      .from(skillEvents)
      .where(and(eq(skillEvents.skillName, "release-notes"), eq(skillEvents.kind, "pinned")));
    expect(rows.length).toBe(1);
  });
});
