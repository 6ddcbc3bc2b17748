import { describe, expect, it } from "vitest";
import { installLinks } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { skillMd } from "../helpers/skills";

/**
 * Install links (docs/teams-and-keys.md#install-links): a lead makes a revocable, read-only link; `<url>/.well-known/skills/…`
 * answers with no header, the same as the key does, and nothing else answers to it.
 */
describe.each(testDbKinds)("install links on %s", (kind) => {
  const t = useTestApp(kind);
  const SCRIPT = "#!/bin/sh\necho fill\n";

  const setUp = async () => {
    const sync = await t.call("POST", "/api/v1/skills/sync", {
      json: {
        files: [
          { path: "pdf-forms/SKILL.md", content: skillMd("pdf-forms", "Fills PDF forms. Use when a form must be filled.") },
          { path: "pdf-forms/scripts/fill.sh", content: SCRIPT, executable: true },
        ],
      },
    });
    expect(sync.status).toBe(200);
    const res = await t.call("POST", "/api/v1/install-links");
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; url: string; token: string };
  };
  /** A request as an installer makes it: the link's URL and a path under it, no header. */
  const viaLink = (url: string, rest: string) => t.call("GET", `${new URL(url).pathname}${rest}`, { key: null });

  it("gives a lead a link that reads the index and its files with no header, as the key does", async () => {
    const link = await setUp();
    expect(link.token).toMatch(/^sgi_[A-Za-z0-9_-]{32}$/);
    expect(link.url).toBe(`http://skillgate.test/i/${link.token}`);
    const index = await viaLink(link.url, "/.well-known/skills/index.json");
    expect(index.status).toBe(200);
    const withKey = await (await t.call("GET", "/.well-known/skills/index.json")).json();
    expect(await index.json()).toEqual(withKey);
    expect(withKey.skills.find((skill: { name: string }) => skill.name === "pdf-forms")).toEqual({
      name: "pdf-forms",
      description: "Fills PDF forms. Use when a form must be filled.",
      version: 1,
      files: ["SKILL.md", "scripts/fill.sh"],
    });
    const skillMdBack = await viaLink(link.url, "/.well-known/skills/pdf-forms/SKILL.md");
    expect(await skillMdBack.text()).toBe(skillMd("pdf-forms", "Fills PDF forms. Use when a form must be filled."));
    expect(await (await viaLink(link.url, "/.well-known/skills/pdf-forms/scripts/fill.sh")).text()).toBe(SCRIPT);
    const missing = await viaLink(link.url, "/.well-known/skills/pdf-forms/scripts/nope.sh");
    expect(missing.status).toBe(404);
  });

  it("opens nothing but the index and its files, and only of its own team", async () => {
    const link = await setUp();
    const asBearer = await t.call("GET", "/api/v1/listing", { key: link.token });
    expect([asBearer.status, await errorOf(asBearer)]).toEqual([
      401,
      { code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" },
    ]);
    expect((await t.call("POST", "/api/mcp", { key: link.token, json: {} })).status).toBe(401);
    expect((await viaLink(link.url, "/api/v1/listing")).status).toBe(404);
    await t.call("POST", "/api/v1/skills/sync", {
      key: t.beta.key,
      json: { files: [{ path: "beta-only/SKILL.md", content: skillMd("beta-only", "Beta's. Use when beta.") }] },
    });
    const betaSkill = await viaLink(link.url, "/.well-known/skills/beta-only/SKILL.md");
    expect([betaSkill.status, (await errorOf(betaSkill)).code]).toEqual([404, "SkillNotFound"]);
    const forged = await t.call("GET", "/i/sgi_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/.well-known/skills/index.json", { key: null });
    expect([forged.status, await errorOf(forged)]).toEqual([
      401,
      { code: "Unauthorized", message: "this install link is not valid or was revoked; ask a lead for a new one" },
    ]);
    const traversal = await viaLink(link.url, "/.well-known/skills/pdf-forms/..%2F..%2Fetc%2Fpasswd");
    expect([traversal.status, (await errorOf(traversal)).code]).toEqual([400, "InvalidPath"]);
  });

  it("is made and revoked by admin keys only; a revoked link answers 401 at once", async () => {
    const { key: readKey } = await createApiKey(t.app.db, { teamId: t.alpha.team.id, name: "reader", scopes: ["read", "write"] });
    const refused = await t.call("POST", "/api/v1/install-links", { key: readKey });
    expect([refused.status, (await errorOf(refused)).code]).toEqual([403, "Forbidden"]);
    expect((await t.call("GET", "/api/v1/install-links", { key: readKey })).status).toBe(403);
    const link = await setUp();
    const other = await setUp();
    expect((await t.call("DELETE", `/api/v1/install-links/${link.id}`, { key: readKey })).status).toBe(403);
    const betaTries = await t.call("DELETE", `/api/v1/install-links/${link.id}`, { key: t.beta.key });
    expect([betaTries.status, await errorOf(betaTries)]).toEqual([
      404,
      { code: "InstallLinkNotFound", message: `no active install link ${link.id} in this team` },
    ]);

    const revoked = await t.call("DELETE", `/api/v1/install-links/${link.id}`);
    expect(revoked.status).toBe(200);
    const body = await revoked.json();
    expect(body).toEqual({ id: link.id, revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const after = await viaLink(link.url, "/.well-known/skills/index.json");
    expect([after.status, (await errorOf(after)).code]).toEqual([401, "Unauthorized"]);
    expect((await viaLink(other.url, "/.well-known/skills/index.json")).status).toBe(200);
    const again = await t.call("DELETE", `/api/v1/install-links/${link.id}`);
    expect([again.status, (await errorOf(again)).code]).toEqual([404, "InstallLinkNotFound"]);

    const list = await (await t.call("GET", "/api/v1/install-links")).json();
    expect(list.links).toEqual([
      { id: other.id, prefix: other.token.slice(0, 10), createdAt: expect.any(String), createdBy: null, revokedAt: null, label: null },
      {
        id: link.id,
        prefix: link.token.slice(0, 10),
        createdAt: expect.any(String),
        createdBy: null,
        revokedAt: body.revokedAt,
        label: null,
      },
    ]);
    expect(await t.app.db.$count(installLinks)).toBe(2);
  });
});
