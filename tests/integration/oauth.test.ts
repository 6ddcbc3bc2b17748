import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeys, oauthTokens } from "@/db/schema";
import { ensureUser, type User } from "@/lib/auth/users";
import { setMembership } from "@/lib/teams/teams";
import { changeRole, removeMember } from "@/lib/teams/members";
import { consent } from "@/lib/oauth/authorizations";
import { listConnections, revokeConnection } from "@/lib/oauth/connections";
import { teamHistory } from "@/lib/evolution/history";
import { errorOf, fetchApp, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { MemoryOAuthClient } from "../helpers/oauth-client";
import { MCP_URL, ORIGIN, REDIRECT, RESOURCE_METADATA, oauthFlow } from "../helpers/oauth-flow";

/** OAuth for the MCP endpoint (docs/mcp.md#oauth, issue 28): the MCP SDK's client signs in as a member, in process. */
describe.each(testDbKinds)("OAuth for MCP on %s", (kind) => {
  const t = useTestApp(kind);
  const clients: Client[] = [];
  let member: User;

  beforeEach(async () => {
    member = await ensureUser(t.app.db, "member@example.com", "a long enough password");
    await setMembership(t.app.db, t.alpha.team.id, member.id, "editor");
    await setMembership(t.app.db, t.beta.team.id, member.id, "viewer");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  });

  const { transportOf, startSignIn, signIn, connected, post, initializeWith } = oauthFlow(t, () => member, clients);

  it("answers a request with no credential 401 with where its OAuth is described, and describes it", async () => {
    const res = await fetchApp(new Request(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${RESOURCE_METADATA}"`);
    expect(await errorOf(res)).toEqual({
      code: "Unauthorized",
      message:
        "sign in: an MCP client does it with OAuth from this answer's WWW-Authenticate; or send a team API key as Authorization: Bearer <key>",
    });
    const resource = await fetchApp(new Request(RESOURCE_METADATA));
    expect(resource.status).toBe(200);
    expect(await resource.json()).toEqual({
      resource: `${ORIGIN}/api/mcp`,
      authorization_servers: [ORIGIN],
      scopes_supported: ["read", "write", "admin"],
      bearer_methods_supported: ["header"],
      resource_name: "Skillgate MCP",
    });
    const server = await fetchApp(new Request(`${ORIGIN}/.well-known/oauth-authorization-server`));
    expect(await server.json()).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/api/oauth/authorize`,
      token_endpoint: `${ORIGIN}/api/oauth/token`,
      registration_endpoint: `${ORIGIN}/api/oauth/register`,
      revocation_endpoint: `${ORIGIN}/api/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
  });

  it("sends nobody anywhere for a bad authorization request, registers no redirect off this machine but https, and refuses NUL with 400", async () => {
    const register = (redirect: string) =>
      fetchApp(
        new Request(`${ORIGIN}/api/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_name: "Somewhere", redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
        }),
      );
    const evil = await register("http://evil.example/cb");
    expect(evil.status).toBe(400);
    expect(await evil.json()).toEqual({
      error: "invalid_redirect_uri",
      error_description:
        "redirect URI http://evil.example/cb is neither https, nor http on this machine (localhost), nor an app's own scheme",
    });
    const https = await register("https://client.example/cb");
    expect(https.status).toBe(201);
    const clientId = ((await https.json()) as { client_id: string }).client_id;
    for (const [query, error] of [
      ["response_type=token&code_challenge=abc&code_challenge_method=S256", "unsupported_response_type"],
      ["response_type=code", "invalid_request"],
      ["response_type=code&code_challenge=abc&code_challenge_method=plain", "invalid_request"],
      ["response_type=code&code_challenge=abc&code_challenge_method=S256&resource=https%3A%2F%2Felsewhere.example%2Fmcp", "invalid_target"],
    ] as const) {
      const res = await fetchApp(new Request(`${ORIGIN}/api/oauth/authorize?client_id=${clientId}&${query}`));
      expect([res.status, res.headers.get("location")], query).toEqual([400, null]);
      expect(((await res.json()) as { error: string }).error, query).toBe(error);
    }
    const nul = await post("/api/oauth/token", { grant_type: "refresh_token", refresh_token: "x", client_id: "a\u0000b" });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ error: "invalid_request", error_description: "a parameter holds a NUL character; remove it" });
    const nulJson = await fetchApp(
      new Request(`${ORIGIN}/api/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"client_name":"a\\u0000b","redirect_uris":["https://client.example/cb"]}',
      }),
    );
    expect(nulJson.status).toBe(400);
  });

  it("tells a wrong API key it is wrong, without inviting OAuth", async () => {
    for (const path of ["/api/mcp", "/api/v1/skills"]) {
      const res = await fetchApp(
        new Request(`${ORIGIN}${path}`, {
          method: path === "/api/mcp" ? "POST" : "GET",
          headers: { authorization: "Bearer sg_not_a_key_of_ours", "content-type": "application/json" },
          body: path === "/api/mcp" ? "{}" : undefined,
        }),
      );
      expect(res.status, path).toBe(401);
      expect(res.headers.get("www-authenticate"), path).toMatch(
        /^Bearer error="invalid_token", error_description="(key|API key) not valid or revoked/,
      );
      expect(res.headers.get("www-authenticate"), path).not.toContain("resource_metadata");
      expect(await errorOf(res), path).toEqual({ code: "InvalidToken", message: "API key not valid or revoked; ask a lead for a new one" });
    }
  });

  it("signs a member in with the SDK's client and acts as them in the team they chose, at the level they chose", async () => {
    const provider = await signIn(t.alpha.team.slug, "write");
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    expect(provider.saved!.access_token).toMatch(/^sgo_at_/);
    expect(provider.saved!.refresh_token).toMatch(/^sgo_rt_/);
    const call = await connected(provider);

    const listing = await call("skill_list");
    const rest = await t.call("GET", "/api/v1/listing?full=true");
    expect(listing).toEqual({ text: await rest.text(), isError: false });
    const created = await call("skill_manage", {
      action: "create",
      name: "oauth-draft",
      description: "Drafted through OAuth. Use when testing connections.",
      body: "# Draft\n",
    });
    expect(created.isError).toBe(false);

    const rows = await t.app.db.select().from(apiKeys).where(isNotNull(apiKeys.userId));
    expect(rows.map((row) => [row.teamId, row.userId, row.name, row.clientName, row.scopes, row.keyHash, row.revokedAt])).toEqual([
      [t.alpha.team.id, member.id, "member@example.com via Claude Code", "Claude Code", ["read", "write"], null, null],
    ]);
    // What it wrote names the member and the client, in history and in the versions.
    const history = await teamHistory(t.app.db, t.alpha.team.id, { skill: "oauth-draft" });
    expect(history.map((event) => [event.kind, event.actor])).toEqual([
      ["created", expect.stringMatching(/^member@example\.com via Claude Code · session [0-9a-f-]{36}$/)],
    ]);
    const versions = (await (await t.call("GET", "/api/v1/skills/oauth-draft/versions")).json()) as { versions: { author: unknown }[] };
    expect(versions.versions.map((version) => version.author)).toEqual([
      {
        kind: "connection",
        keyId: rows[0]!.id,
        name: "member@example.com via Claude Code",
        session: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it("refreshes by itself when its access token has expired: the SDK's client trades the refresh token and goes on", async () => {
    const provider = await signIn(t.alpha.team.slug, "read");
    const call = await connected(provider);
    const before = provider.saved!;
    await t.app.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.kind, "access"));
    expect((await call("skill_list")).isError).toBe(false);
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    // The client's GET stream and its tool call may both meet the 401 and refresh at once with one
    // token: one wins, the other is refused within the grace and refreshes again with the new one.
    // Either way one refresh token is left unspent, and the connection lives.
    const refreshTokens = await t.app.db.select({ usedAt: oauthTokens.usedAt }).from(oauthTokens).where(eq(oauthTokens.kind, "refresh"));
    expect(refreshTokens.filter((row) => row.usedAt === null)).toHaveLength(1);
    expect(refreshTokens.length).toBeGreaterThanOrEqual(2);
    expect(
      await t.app.db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(isNotNull(apiKeys.userId), isNotNull(apiKeys.revokedAt))),
    ).toEqual([]);
  });

  it("lets a viewer's connection read and not write", async () => {
    const call = await connected(await signIn(t.beta.team.slug, "read"));
    expect((await call("skill_list")).isError).toBe(false);
    const write = await call("skill_manage", { action: "create", name: "not-allowed", description: "No. Use never.", body: "# No\n" });
    expect(write).toEqual({
      text: 'this connection was allowed "read" access, which does not include "write"; sign the client in again and allow "write", if your role permits it',
      isError: true,
    });
  });

  it("keeps a token to its team: another member's cannot reach a team that member is not in", async () => {
    const other = await ensureUser(t.app.db, "other@example.com", "another long password");
    await setMembership(t.app.db, t.alpha.team.id, other.id, "lead");
    const created = await t.call("POST", "/api/v1/skills", {
      key: t.beta.key,
      json: { name: "beta-only", description: "Only in beta. Use when checking isolation.", body: "# Beta\n", status: "active" },
    });
    expect(created.status).toBe(201);
    const provider = new MemoryOAuthClient(REDIRECT);
    const request = await startSignIn(provider);
    await expect(consent(t.app.db, request, { userId: other.id }, { teamSlug: t.beta.team.slug, level: "read" })).rejects.toThrow(
      `you are in no team called “${t.beta.team.slug}”: choose one of your teams`,
    );
    const { redirectTo } = await consent(t.app.db, request, { userId: other.id }, { teamSlug: t.alpha.team.slug, level: "admin" });
    await transportOf(provider).finishAuth(new URL(redirectTo).searchParams.get("code")!);
    const call = await connected(provider);
    expect(await call("skill_view", { name: "beta-only" })).toEqual({
      text: "Error [SkillNotFound]: No skill named 'beta-only'. Use skill_list to see available skills.",
      isError: true,
    });
  });

  it("revokes a connection once when 16 revocations race, and only the member's own unless a lead", async () => {
    await connected(await signIn(t.alpha.team.slug, "read"));
    const [row] = await t.app.db.select({ id: apiKeys.id }).from(apiKeys).where(isNotNull(apiKeys.userId));
    const stranger = await ensureUser(t.app.db, "stranger@example.com", "a third long password");
    await setMembership(t.app.db, t.alpha.team.id, stranger.id, "editor");
    await expect(revokeConnection(t.app.db, t.alpha.team.id, row!.id, { userId: stranger.id, role: "editor" })).rejects.toThrow(
      `no active connection ${row!.id} of yours in this team`,
    );
    // The settings page's list: a lead sees every member's connections, anyone else their own.
    const listed = async (userId: number, role: "lead" | "editor") =>
      (await listConnections(t.app.db, t.alpha.team.id, { userId, role })).map((c) => [c.clientName, c.email, c.level]);
    expect(await listed(stranger.id, "editor")).toEqual([]);
    expect(await listed(member.id, "editor")).toEqual([["Claude Code", "member@example.com", "read"]]);
    expect(await listed(stranger.id, "lead")).toEqual([["Claude Code", "member@example.com", "read"]]);
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, () => revokeConnection(t.app.db, t.alpha.team.id, row!.id, { userId: member.id, role: "editor" })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [after] = await t.app.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, row!.id));
    expect(after!.revokedAt).not.toBeNull();
  });

  it("refuses a level above the member's role in the chosen team, and a team they are not in", async () => {
    const provider = new MemoryOAuthClient(REDIRECT);
    const request = await startSignIn(provider);
    await expect(consent(t.app.db, request, { userId: member.id }, { teamSlug: t.beta.team.slug, level: "write" })).rejects.toThrow(
      "a viewer cannot give a client write access: choose a lower level",
    );
    await expect(consent(t.app.db, request, { userId: member.id }, { teamSlug: "nobody", level: "read" })).rejects.toThrow(
      "you are in no team called “nobody”: choose one of your teams",
    );
  });

  it("ends a connection when its member is removed, and one above a member's new role when it drops", async () => {
    const writer = await connected(await signIn(t.alpha.team.slug, "write"));
    const reader = await connected(await signIn(t.alpha.team.slug, "read"));
    await changeRole(t.app.db, t.alpha.team.id, member.email, "viewer");
    await expect(writer("skill_list")).rejects.toThrow();
    expect((await reader("skill_list")).isError).toBe(false);
    await removeMember(t.app.db, t.alpha.team.id, member.email);
    await expect(reader("skill_list")).rejects.toThrow();
    const live = await t.app.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(isNotNull(apiKeys.userId), eq(apiKeys.teamId, t.alpha.team.id)));
    const revoked = await t.app.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(isNotNull(apiKeys.userId), isNotNull(apiKeys.revokedAt)));
    expect(revoked).toHaveLength(2);
    expect(live).toHaveLength(2);
  });

  it("rotates refresh tokens: a spent one is refused, and one presented long after its use ends the connection", async () => {
    const provider = await signIn(t.alpha.team.slug, "read");
    const clientId = provider.information!.client_id;
    const first = provider.saved!;
    // Another client that got hold of the token cannot spend it, nor spoil it for its owner.
    const registered = await fetchApp(
      new Request(`${ORIGIN}/api/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Thief", redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" }),
      }),
    );
    expect(registered.status).toBe(201);
    const thief = ((await registered.json()) as { client_id: string }).client_id;
    const stolenEarly = await post("/api/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: thief,
    });
    expect(stolenEarly.status).toBe(400);
    const refreshed = await post("/api/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    const again = await post("/api/oauth/token", { grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: clientId });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: "invalid_grant",
      error_description: "the refresh token is not valid, has expired or was revoked: sign in again",
    });
    // Within the grace a spent token is only refused: the connection lives on.
    provider.saved = { ...first, ...next };
    expect((await (await connected(provider))("skill_list")).isError).toBe(false);
    // Long after, it is taken for a stolen copy: the whole connection ends.
    await t.app.db
      .update(oauthTokens)
      .set({ usedAt: new Date(Date.now() - 3_600_000) })
      .where(isNotNull(oauthTokens.usedAt));
    const stolen = await post("/api/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(stolen.status).toBe(400);
    const res = await initializeWith(next.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="access token not valid, expired or revoked: refresh it, or sign in again", resource_metadata="${RESOURCE_METADATA}"`,
    );
  });

  it("refuses a verifier that does not match the code's challenge, and a token for another resource", async () => {
    const provider = new MemoryOAuthClient(REDIRECT);
    const { redirectTo } = await consent(
      t.app.db,
      await startSignIn(provider),
      { userId: member.id },
      { teamSlug: t.alpha.team.slug, level: "read" },
    );
    const code = new URL(redirectTo).searchParams.get("code")!;
    const clientId = provider.information!.client_id;
    const wrong = await post("/api/oauth/token", {
      grant_type: "authorization_code",
      code,
      code_verifier: "x".repeat(50),
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "invalid_grant", error_description: "code_verifier does not match the challenge" });
    const elsewhere = await post("/api/oauth/token", {
      grant_type: "authorization_code",
      code,
      code_verifier: provider.verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
      resource: "https://elsewhere.example/mcp",
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toEqual({
      error: "invalid_target",
      error_description: `this server issues tokens for ${ORIGIN}/api/mcp only`,
    });
  });

  it("gives a code's tokens to one of 16 exchanges at once, and takes them back: the 15 others presented a spent code", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const provider = new MemoryOAuthClient(REDIRECT);
    const request = await startSignIn(provider);
    const answers = await Promise.allSettled(
      Array.from({ length: 16 }, () => consent(t.app.db, request, { userId: member.id }, { teamSlug: t.alpha.team.slug, level: "read" })),
    );
    const given = answers.filter((answer) => answer.status === "fulfilled");
    expect(given).toHaveLength(1);
    expect(
      answers.filter((answer) => answer.status === "rejected").map((answer) => (answer as PromiseRejectedResult).reason.message),
    ).toEqual(Array(15).fill("this sign-in request has expired or was already answered: start again from your MCP client"));
    const code = new URL((given[0] as PromiseFulfilledResult<{ redirectTo: string }>).value.redirectTo).searchParams.get("code")!;
    const clientId = provider.information!.client_id;
    const exchanges = await Promise.all(
      Array.from({ length: 16 }, () =>
        post("/api/oauth/token", {
          grant_type: "authorization_code",
          code,
          code_verifier: provider.verifier,
          client_id: clientId,
          redirect_uri: REDIRECT,
        }),
      ),
    );
    expect(exchanges.map((res) => res.status).sort()).toEqual([200, ...Array(15).fill(400)]);
    const winner = (await exchanges.find((res) => res.status === 200)!.json()) as { access_token: string };
    const opened = await t.app.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(isNotNull(apiKeys.userId));
    expect(opened.map((row) => row.revokedAt !== null)).toEqual([true]);
    expect((await initializeWith(winner.access_token)).status).toBe(401);
    expect(warn.mock.calls.filter(([line]) => String(line).startsWith("skillgate: oauth: "))).toHaveLength(1);
    warn.mockRestore();
  });

  it("gives a refresh's tokens to one of 16 refreshes at once", async () => {
    const provider = await signIn(t.alpha.team.slug, "read");
    const clientId = provider.information!.client_id;
    const refreshes = await Promise.all(
      Array.from({ length: 16 }, () =>
        post("/api/oauth/token", { grant_type: "refresh_token", refresh_token: provider.saved!.refresh_token!, client_id: clientId }),
      ),
    );
    expect(refreshes.map((res) => res.status).sort()).toEqual([200, ...Array(15).fill(400)]);
    // 1 access + 1 refresh from the code, and 2 from the one refresh that won.
    expect(await t.app.db.select({ hash: oauthTokens.tokenHash }).from(oauthTokens)).toHaveLength(4);
    expect(await t.app.db.select({ id: apiKeys.id }).from(apiKeys).where(isNotNull(apiKeys.revokedAt))).toEqual([]);
  });
});
