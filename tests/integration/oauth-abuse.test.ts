import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeys, oauthAuthorizations, oauthClients, oauthTokens, rateLimits } from "@/db/schema";
import { addressesFromSockets } from "@/lib/client-address";
import { installApp } from "@/lib/current-app";
import { deleteUnusedClients } from "@/lib/oauth/clients";
import { revokeConnection } from "@/lib/oauth/connections";
import { ensureUser, type User } from "@/lib/auth/users";
import { setMembership } from "@/lib/teams/teams";
import { anotherInstance, useTestApp } from "../helpers/app";
import { httpBridge, type HttpBridge } from "../helpers/http-bridge";
import { testDbKinds } from "../helpers/db";
import { MemoryOAuthClient } from "../helpers/oauth-client";
import { MCP_URL, ORIGIN, REDIRECT, RESOURCE_METADATA, inProcess, oauthFlow, type Fetch } from "../helpers/oauth-flow";

/** A registration as an MCP client sends it (RFC 7591), with any body. */
const registerWith = (body: string, fetch = inProcess) =>
  fetch(`${ORIGIN}/api/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body });

const metadata = (redirect = "http://127.0.0.1:8976/callback") =>
  JSON.stringify({ client_name: "Claude Code", redirect_uris: [redirect], token_endpoint_auth_method: "none" });

/** How an OAuth call of the SDK's client ended: its OAuth error and description, or "accepted". */
const outcomeOf = (call: Promise<unknown>) =>
  call.then(
    () => "accepted",
    (error: OAuthError) => `${error.errorCode}: ${error.message}`,
  );

const SPENT_CODE = "invalid_grant: the authorization code is not valid, has expired or was already used";
const REFRESH_REFUSED = "invalid_grant: the refresh token is not valid, has expired or was revoked: sign in again";
const TOKEN_REFUSED = `Bearer error="invalid_token", error_description="access token not valid, expired or revoked: refresh it, or sign in again", resource_metadata="${RESOURCE_METADATA}"`;

/** The app in process, as reached by a client whose proxy (or socket) says it is at `address`. */
const from =
  (address: string): Fetch =>
  (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", address);
    return inProcess(url, { ...init, headers });
  };

/** The app behind a real HTTP server, reached by a client that writes its own X-Forwarded-For. */
const throughHttp =
  (bridge: HttpBridge, forwardedFor: () => string): Fetch =>
  (url, init) => {
    const target = new URL(url);
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", forwardedFor());
    return fetch(`${bridge.url}${target.pathname}${target.search}`, { ...init, headers });
  };

/** What an answer is, whole: status, content type and body. */
async function answerOf(res: Response) {
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json().catch(() => "not JSON") };
}

/**
 * OAuth abuse limits (issue 38, point 7): registration limited per address, clients that never
 * connected forgotten, a replayed code or refresh token revoking its grant, a wrong PKCE verifier
 * using the code up, and registration's refusals in RFC 7591's JSON.
 */
describe.each(testDbKinds)("OAuth abuse limits on %s", (kind) => {
  const t = useTestApp(kind);
  const clients: Client[] = [];
  let member: User;

  beforeEach(async () => {
    member = await ensureUser(t.app.db, "member@example.com", "a long enough password");
    await setMembership(t.app.db, t.alpha.team.id, member.id, "editor");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
    vi.restoreAllMocks();
  });

  const flow = oauthFlow(t, () => member, clients);

  /** The token endpoint, called as the SDK's client calls it. */
  async function tokenEndpoint(provider: MemoryOAuthClient) {
    const metadata = await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: inProcess });
    const common = { metadata, clientInformation: provider.information!, resource: MCP_URL, fetchFn: inProcess };
    return {
      exchange: (code: string, codeVerifier: string) =>
        exchangeAuthorization(ORIGIN, { ...common, authorizationCode: code, codeVerifier, redirectUri: REDIRECT }),
      refresh: (refreshToken: string) => refreshAuthorization(ORIGIN, { ...common, refreshToken }),
    };
  }

  /** A registration by the SDK's client, as it makes one before its first sign-in: the client id. */
  async function registered(fetch = inProcess): Promise<string> {
    const metadata = await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: fetch });
    const information = await registerClient(ORIGIN, {
      metadata,
      clientMetadata: new MemoryOAuthClient(REDIRECT).clientMetadata,
      fetchFn: fetch,
    });
    return information.client_id;
  }

  /** The member's connections: [live, revoked]. */
  async function connections(): Promise<[number, number]> {
    const rows = await t.app.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(isNotNull(apiKeys.userId));
    return [rows.filter((row) => row.revokedAt === null).length, rows.filter((row) => row.revokedAt !== null).length];
  }

  /** The log line of a replay that revoked the member's one connection. */
  async function revokedLine(presented: string): Promise<string> {
    const [connection] = await t.app.db.select({ id: apiKeys.id }).from(apiKeys).where(isNotNull(apiKeys.userId));
    return `skillgate: oauth: ${presented} was presented again after it was spent; its connection ${connection!.id} ("member@example.com via Claude Code") is revoked`;
  }

  /** What the server logged of revoking a grant. */
  const revocationLines = (warn: { mock: { calls: unknown[][] } }) =>
    warn.mock.calls.map((args) => String(args[0])).filter((line) => line.startsWith("skillgate: oauth: "));

  describe("a spent authorization code or refresh token presented again", () => {
    it("uses a code up on a wrong PKCE verifier: the right verifier after it is refused, and nothing connects", async () => {
      const provider = new MemoryOAuthClient(REDIRECT);
      const code = await flow.consentedCode(provider, t.alpha.team.slug, "read");
      const token = await tokenEndpoint(provider);
      expect(await outcomeOf(token.exchange(code, "x".repeat(50)))).toBe("invalid_grant: code_verifier does not match the challenge");
      expect(await outcomeOf(flow.transportOf(provider).finishAuth(code))).toBe(SPENT_CODE);
      expect(provider.saved).toBeUndefined();
      expect(await connections()).toEqual([0, 0]);
      const requests = await t.app.db.select({ usedAt: oauthAuthorizations.usedAt }).from(oauthAuthorizations);
      expect(requests.map((row) => row.usedAt !== null)).toEqual([true]);
    });

    it("revokes what a code gave when it is presented again: the access and refresh tokens it gave are refused at once", async () => {
      const provider = await flow.signIn(t.alpha.team.slug, "read");
      const call = await flow.connected(provider);
      expect((await call("skill_list")).isError).toBe(false);
      const given = provider.saved!;
      const token = await tokenEndpoint(provider);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});

      expect(await outcomeOf(token.exchange(provider.spentCode!, provider.verifier))).toBe(SPENT_CODE);
      const next = await flow.initializeWith(given.access_token);
      expect([next.status, next.headers.get("www-authenticate")]).toEqual([401, TOKEN_REFUSED]);
      expect(await outcomeOf(token.refresh(given.refresh_token!))).toBe(REFRESH_REFUSED);
      // The SDK's client, already connected, meets a 401 on its next call and cannot refresh.
      expect(await outcomeOf(call("skill_list"))).toBe(REFRESH_REFUSED);
      expect(await connections()).toEqual([0, 1]);
      expect(revocationLines(warn)).toEqual([await revokedLine("an authorization code")]);
    });

    it("revokes what a rotated refresh token led to when it is presented after its grace: the newest tokens are refused at once", async () => {
      const provider = await flow.signIn(t.alpha.team.slug, "read");
      const token = await tokenEndpoint(provider);
      const first = provider.saved!;
      const rotated = await token.refresh(first.refresh_token!);
      // Within the grace a spent token is a client's retry, only refused; past it, a copy in other hands.
      expect(await outcomeOf(token.refresh(first.refresh_token!))).toBe(REFRESH_REFUSED);
      expect((await flow.initializeWith(rotated.access_token)).status).toBe(200);
      await t.app.db
        .update(oauthTokens)
        .set({ usedAt: new Date(Date.now() - 60_000) })
        .where(isNotNull(oauthTokens.usedAt));
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      expect(await outcomeOf(token.refresh(first.refresh_token!))).toBe(REFRESH_REFUSED);
      const next = await flow.initializeWith(rotated.access_token);
      expect([next.status, next.headers.get("www-authenticate")]).toEqual([401, TOKEN_REFUSED]);
      expect(await outcomeOf(token.refresh(rotated.refresh_token!))).toBe(REFRESH_REFUSED);
      expect(await connections()).toEqual([0, 1]);
      expect(revocationLines(warn)).toEqual([await revokedLine("a refresh token")]);
    });

    it("refuses 16 replays of a spent code at once and revokes the grant once", async () => {
      const provider = await flow.signIn(t.alpha.team.slug, "write");
      const given = provider.saved!;
      const token = await tokenEndpoint(provider);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const replays = await Promise.all(
        Array.from({ length: 16 }, () => outcomeOf(token.exchange(provider.spentCode!, provider.verifier))),
      );
      expect(replays).toEqual(Array(16).fill(SPENT_CODE));
      expect(revocationLines(warn)).toEqual([await revokedLine("an authorization code")]);
      expect(await connections()).toEqual([0, 1]);
      expect((await flow.initializeWith(given.access_token)).status).toBe(401);
      expect(await outcomeOf(token.refresh(given.refresh_token!))).toBe(REFRESH_REFUSED);
      // The code opened one connection and no replay another: 2 tokens, both of it.
      const tokens = await t.app.db.select({ connectionId: oauthTokens.connectionId }).from(oauthTokens);
      expect(tokens).toHaveLength(2);
      const unanswered = await t.app.db
        .select()
        .from(oauthAuthorizations)
        .where(and(isNull(oauthAuthorizations.usedAt), eq(oauthAuthorizations.clientId, provider.information!.client_id)));
      expect(unanswered).toEqual([]);
    });
  });

  describe("registration, 20 an hour per address", () => {
    const ADDRESS = "198.51.100.7";

    /** What the shared rows say each address registered in its window. */
    const counted = async () =>
      Object.fromEntries(
        (await t.app.db.select({ key: rateLimits.key, used: rateLimits.used }).from(rateLimits)).map((row) => [row.key, row.used]),
      );
    const clientCount = async () => (await t.app.db.select({ id: oauthClients.clientId }).from(oauthClients)).length;

    it("admits 20 registrations an hour from an address and refuses the 21st, through the SDK's client: 429, Retry-After, too_many_requests", async () => {
      for (let i = 0; i < 20; i++) await registered(from(ADDRESS));
      const provider = new MemoryOAuthClient(REDIRECT);
      const transport = oauthFlow(t, () => member, clients, from(ADDRESS)).transportOf(provider);
      const refused = await new Client({ name: "oauth-test", version: "1" }).connect(transport).then(
        () => "connected",
        (error: OAuthError) => `${error.errorCode}: ${error.message}`,
      );
      expect(provider.information).toBeUndefined();

      const res = await registerWith(metadata(), from(ADDRESS));
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      const message = (seconds: number) => `too many client registrations from this address (20 an hour); retry in ${seconds} s`;
      expect(await answerOf(res)).toEqual({
        status: 429,
        type: "application/json",
        body: { error: "too_many_requests", error_description: message(retryAfter) },
      });
      expect(refused).toMatch(/^too_many_requests: too many client registrations from this address \(20 an hour\); retry in \d+ s$/);
      expect(await clientCount()).toBe(20);
      // Another address has its own 20.
      await registered(from("198.51.100.8"));
      expect(await clientCount()).toBe(21);
      expect(await counted()).toEqual({ [`register ${ADDRESS}`]: 20, "register 198.51.100.8": 1 });
    });

    it("counts every instance's registrations together: 10 through one and 10 through another, then neither admits one more", async () => {
      const other = anotherInstance(t.app);
      try {
        for (let i = 0; i < 10; i++) await registered(from(ADDRESS));
        const putBack = installApp(other);
        try {
          for (let i = 0; i < 10; i++) await registered(from(ADDRESS));
          expect((await registerWith(metadata(), from(ADDRESS))).status).toBe(429);
        } finally {
          putBack();
        }
        expect((await registerWith(metadata(), from(ADDRESS))).status).toBe(429);
        expect(await clientCount()).toBe(20);
        expect(await counted()).toEqual({ [`register ${ADDRESS}`]: 20 });
      } finally {
        await other.close();
      }
    });

    it("admits exactly one of 16 registrations sent at once when 19 are counted, and loses none", async () => {
      for (let i = 0; i < 19; i++) await registered(from(ADDRESS));
      const answers = await Promise.all(Array.from({ length: 16 }, () => registerWith(metadata(), from(ADDRESS))));
      expect(answers.map((res) => res.status).sort()).toEqual([201, ...Array(15).fill(429)]);
      expect(await clientCount()).toBe(20);
      expect(await counted()).toEqual({ [`register ${ADDRESS}`]: 20 });
    });

    it("takes the address from the socket unless SKILLGATE_TRUST_PROXY=1: a rotating X-Forwarded-For gets 20 in all", async () => {
      const bridge = await httpBridge();
      let next = 0;
      const rotating = throughHttp(bridge, () => `203.0.113.${++next}`);
      try {
        // Behind a trusted proxy, X-Forwarded-For is the proxy's word: each address its own 20.
        const trusted = addressesFromSockets({ trustProxy: true });
        for (let i = 0; i < 21; i++) await registered(rotating);
        trusted();
        expect(await clientCount()).toBe(21);

        // Without one, it is the client's word: the socket's address counts.
        const untrusted = addressesFromSockets({ trustProxy: false });
        try {
          for (let i = 0; i < 20; i++) await registered(rotating);
          expect(await outcomeOf(registered(rotating))).toMatch(/^too_many_requests: too many client registrations from this address/);
        } finally {
          untrusted();
        }
        expect(await clientCount()).toBe(41);
        expect((await counted())["register 127.0.0.1"]).toBe(20);
      } finally {
        await bridge.close();
      }
    });
  });

  describe("clients that never connect", () => {
    it("deletes a client that never connected once it is 24 hours old, as the background tick does; clients that connected stay", async () => {
      const connected = (await flow.signIn(t.alpha.team.slug, "read")).information!.client_id;
      const disconnected = (await flow.signIn(t.alpha.team.slug, "read")).information!.client_id;
      const [ended] = await t.app.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.clientId, disconnected));
      await revokeConnection(t.app.db, t.alpha.team.id, ended!.id, { userId: member.id, role: "editor" });
      // One went as far as the consent page and no further; one only registered.
      const abandoned = new MemoryOAuthClient(REDIRECT);
      await flow.startSignIn(abandoned);
      const onlyRegistered = await registered();
      const young = await registered();
      const backdate = (hours: number, ids: string[]) =>
        t.app.db
          .update(oauthClients)
          .set({ createdAt: sql`now() - ${hours}::numeric * interval '1 hour'` })
          .where(inArray(oauthClients.clientId, ids));
      await backdate(24.1, [connected, disconnected, abandoned.information!.client_id, onlyRegistered]);
      await backdate(23.9, [young]);

      expect(await deleteUnusedClients(t.app.db)).toBe(2);
      const kept = await t.app.db.select({ id: oauthClients.clientId }).from(oauthClients);
      expect(kept.map((row) => row.id).sort()).toEqual([connected, disconnected, young].sort());
      // The abandoned sign-in's request went with its client; the two that connected keep theirs.
      const requests = await t.app.db.select({ clientId: oauthAuthorizations.clientId }).from(oauthAuthorizations);
      expect(requests.map((row) => row.clientId).sort()).toEqual([connected, disconnected].sort());
      expect(await deleteUnusedClients(t.app.db)).toBe(0);
    });
  });

  describe("registration's refusals", () => {
    it("answers malformed JSON, a body over 64 KiB and a bad redirect URI in RFC 7591's JSON, never HTML", async () => {
      expect(await answerOf(await registerWith('{"client_name": "Claude Code", "redirect_uris": ['))).toEqual({
        status: 400,
        type: "application/json",
        body: {
          error: "invalid_client_metadata",
          error_description: "the body is not valid JSON: send the client's metadata as one JSON object (RFC 7591)",
        },
      });
      const padded = JSON.stringify({ ...JSON.parse(metadata()), client_uri: `https://client.example/${"x".repeat(64 * 1024)}` });
      expect(await answerOf(await registerWith(padded))).toEqual({
        status: 413,
        type: "application/json",
        body: { error: "invalid_client_metadata", error_description: "request body is larger than 65536 bytes; send less at a time" },
      });
      expect(await answerOf(await registerWith(metadata("http://evil.example/cb")))).toEqual({
        status: 400,
        type: "application/json; charset=utf-8",
        body: {
          error: "invalid_redirect_uri",
          error_description:
            "redirect URI http://evil.example/cb is neither https, nor http on this machine (localhost), nor an app's own scheme",
        },
      });
      const rows = await t.app.database.query<{ n: number }>("select count(*)::int as n from oauth_clients", []);
      expect(rows).toEqual([{ n: 0 }]);
    });
  });
});
