import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { errorOf, startTestApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

describe.each(testDbKinds)("API conventions on %s", (kind) => {
  const t = useTestApp(kind);

  it("asks for a key when none is sent, and refuses unknown and revoked keys", async () => {
    const none = await t.call("GET", "/api/v1/listing", { key: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(await none.json()).toEqual({
      error: { code: "Unauthorized", message: "send the team's API key as Authorization: Bearer <key>" },
    });
    const wrong = await t.call("GET", "/api/v1/listing", { key: "sg_not-a-real-key" });
    expect(await errorOf(wrong)).toEqual({ code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" });
    expect(wrong.headers.get("www-authenticate")).toBe(
      'Bearer error="invalid_token", error_description="API key not valid or revoked; ask a lead for a new one"',
    );
    const { id, key } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "short-lived", scopes: ["read"] });
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(200);
    await revokeApiKey(t.app.db, t.alpha.team.id, id);
    expect((await t.call("GET", "/api/v1/listing", { key })).status).toBe(401);
  });

  it("enforces scopes: a read key cannot sync, a write key cannot sync, an admin key can", async () => {
    const read = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read"] })).key;
    const write = (await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "writer", scopes: ["write"] })).key;
    const files = [{ path: "scoped/SKILL.md", content: skillMd("scoped", "Scoped. Use when testing scopes.") }];
    for (const key of [read, write]) {
      const res = await t.call("POST", "/api/v1/skills/sync", { key, json: { files } });
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: "Forbidden",
        message: 'this API key lacks the "admin" scope; ask a lead for a key that has it',
      });
    }
    expect((await t.call("GET", "/api/v1/skills/scoped", { key: write })).status).toBe(404);
    expect((await t.call("POST", "/api/v1/skills/sync", { json: { files: [] } })).status).toBe(200);
  });

  it("answers every malformed body with a 4xx that says what to fix", async () => {
    const post = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
      t.call("POST", "/api/v1/lint", { body, headers });
    expect(await errorOf(await post("{not json"))).toMatchObject({ code: "InvalidJson" });
    expect((await errorOf(await post("{not json"))).message).toMatch(/^request body is not valid JSON: /);
    expect(await errorOf(await post(""))).toEqual({ code: "InvalidJson", message: "request body is empty; send a JSON object" });
    expect(await errorOf(await post(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])))).toEqual({
      code: "InvalidUtf8",
      message: "request body is not valid UTF-8",
    });
    expect(await errorOf(await post('{"description": "\\ud800 half"}'))).toEqual({
      code: "InvalidUtf8",
      message: 'field "description" holds a lone UTF-16 surrogate (\\ud800–\\udfff); send valid Unicode',
    });
    expect(await errorOf(await post('{"description": 42}'))).toEqual({
      code: "InvalidField",
      message: 'field "description": Invalid input: expected string, received number',
    });
    expect(await errorOf(await post('{"description": "x", "extra": 1}'))).toEqual({
      code: "InvalidField",
      message: 'unknown field "extra"; remove it',
    });
    expect(await errorOf(await post("[]"))).toEqual({
      code: "InvalidField",
      message: "body: Invalid input: expected object, received array",
    });
    const big = await post(JSON.stringify({ description: "x".repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(await errorOf(big)).toEqual({ code: "PayloadTooLarge", message: "request body is larger than 1 MiB; send less at a time" });
    const xml = await post("<lint/>", { "content-type": "application/xml" });
    expect(xml.status).toBe(415);
    expect(await errorOf(xml)).toEqual({
      code: "UnsupportedMediaType",
      message: "send JSON with content-type application/json (got application/xml)",
    });
    const syncWrong = await t.call("POST", "/api/v1/skills/sync", { json: { files: "all of them" } });
    expect(syncWrong.status).toBe(400);
    expect(await errorOf(syncWrong)).toEqual({
      code: "InvalidField",
      message: 'field "files": Invalid input: expected array, received string',
    });
    const notGzip = await t.call("POST", "/api/v1/skills/sync", { body: "plain", headers: { "content-type": "application/gzip" } });
    expect(await errorOf(notGzip)).toEqual({
      code: "BadRequest",
      message: "request body is not a gzip file; send a .tar.gz of the skill folders",
    });
  });

  it("refuses bad skill names and bad query values with a 400", async () => {
    const res = await t.call("GET", "/api/v1/skills/My_Skill");
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: "InvalidName",
      message: 'invalid skill name: name "My_Skill" may hold only lowercase letters, digits and hyphens',
    });
    expect(await errorOf(await t.call("GET", "/api/v1/skills/-lead"))).toEqual({
      code: "InvalidName",
      message: 'invalid skill name: name "-lead" may not start or end with a hyphen',
    });
    expect(await errorOf(await t.call("GET", "/api/v1/skills/a--b"))).toEqual({
      code: "InvalidName",
      message: 'invalid skill name: name "a--b" may not hold two hyphens in a row',
    });
    expect(await errorOf(await t.call("GET", `/api/v1/skills/${"a".repeat(65)}`))).toMatchObject({ code: "InvalidName" });
    expect(await errorOf(await t.call("GET", "/api/v1/listing?cap=lots"))).toEqual({
      code: "InvalidQuery",
      message: 'field "cap": expected a positive whole number',
    });
    expect((await t.call("GET", "/api/v1/listing?cap=0")).status).toBe(400);
    expect((await t.call("GET", "/api/v1/listing?format=xml")).status).toBe(400);
    expect((await t.call("GET", "/api/v1/skills/writing-plans?version=-1")).status).toBe(400);
  });

  it("renders a what-if listing without changing settings, and the JSON form with the same text and figures", async () => {
    const res = await t.call("GET", "/api/v1/listing?cap=300&descMax=20&format=json");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.cap).toBe(300);
    expect(body.descMax).toBe(20);
    expect(body.chars).toBeLessThanOrEqual(300);
    expect(body.shown + body.droppedEntries).toBe(body.total);
    expect(
      body.text.endsWith(
        `[skills listing truncated: showed ${body.shown} of 7 skills; dropped ${body.droppedDescriptions} descriptions and ${body.droppedEntries} entries — call skill_list for the full catalog]`,
      ),
    ).toBe(true);
    expect(res.headers.get("x-listing-cap")).toBe("300");
    expect(body.groups.map((g: { scope: string }) => g.scope)).toEqual(["builtin"]);
    expect(body.groups[0].entries).toHaveLength(7);
    const text = await (await t.call("GET", "/api/v1/listing?cap=300&descMax=20")).text();
    expect(text).toBe(body.text);
    const normal = await t.call("GET", "/api/v1/listing");
    expect(normal.headers.get("x-listing-cap")).toBe("8000");
  });

  it("marks each JSON entry full, cut (shortened by descMax), stripped or dropped (by the cap)", async () => {
    await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "short/SKILL.md", content: skillMd("short", "Short. Use when short.") },
          {
            path: "long-one/SKILL.md",
            content: skillMd(
              "long-one",
              "Sorts flaky tests into timing, order or environment causes. Use when a test fails only sometimes.",
            ),
          },
        ],
      },
    });
    const states = async (query: string) => {
      const body = await (await t.call("GET", `/api/v1/listing?format=json&${query}`)).json();
      const entries = body.groups.flatMap((g: { entries: { name: string; state: string }[] }) => g.entries);
      return Object.fromEntries(
        entries
          .filter((e: { name: string }) => ["short", "long-one"].includes(e.name))
          .map((e: { name: string; state: string }) => [e.name, e.state]),
      );
    };
    expect(await states("descMax=1024")).toEqual({ short: "full", "long-one": "full" });
    expect(await states("descMax=40")).toEqual({ short: "full", "long-one": "cut" });
    expect(await states("descMax=40&cap=450")).toEqual({ short: "stripped", "long-one": "stripped" });
    expect(await states("descMax=40&cap=200")).toEqual({ short: "dropped", "long-one": "dropped" });
  });

  it("serves a new listing as soon as the catalog changes (cache invalidated) and 304 while it has not", async () => {
    const first = await t.call("GET", "/api/v1/listing");
    const etag = first.headers.get("etag")!;
    expect((await t.call("GET", "/api/v1/listing", { headers: { "if-none-match": etag } })).status).toBe(304);
    await t.call("POST", "/api/v1/skills/sync", {
      json: { files: [{ path: "fresh/SKILL.md", content: skillMd("fresh", "Fresh. Use when checking caches.") }] },
    });
    const second = await t.call("GET", "/api/v1/listing", { headers: { "if-none-match": etag } });
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("## Workspace directory skills\n- fresh: Fresh. Use when checking caches.");
  });

  it("pages the skills list with limit and cursor", async () => {
    const all = (await (await t.call("GET", "/api/v1/skills")).json()).skills.map(
      (s: { name: string; status: string }) => `${s.name}/${s.status}`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/v1/skills?limit=3${cursor ? `&cursor=${cursor}` : ""}`;
      const body = await (await t.call("GET", url)).json();
      seen.push(...body.skills.map((s: { name: string; status: string }) => `${s.name}/${s.status}`));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(await errorOf(await t.call("GET", "/api/v1/skills?cursor=bogus"))).toEqual({
      code: "InvalidQuery",
      message: 'field "cursor": is not a cursor this API gave out',
    });
    expect((await t.call("GET", "/api/v1/skills?limit=1001")).status).toBe(400);
  });

  it("answers health with the database state", async () => {
    const res = await t.call("GET", "/api/health", { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: { kind: kind === "pglite" ? "pglite" : "postgres", state: "up" } });
  });
});

describe("outages", () => {
  it("answers 503 when the database is gone, never a 500", async () => {
    const t = await startTestApp("pglite");
    await t.app.database.close();
    const res = await t.call("GET", "/api/v1/listing");
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toEqual({ code: "DatabaseUnavailable", message: "the database is unavailable; try again shortly" });
    const health = await t.call("GET", "/api/health", { key: null });
    expect([health.status, health.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(await health.json()).toEqual({ status: "unavailable", database: { state: "down", error: "PGlite is closed" } });
    // Liveness says the process answers, which it still does.
    const live = await t.call("GET", "/api/live", { key: null });
    expect([live.status, await live.json()]).toEqual([200, { status: "live" }]);
  });
});
