import express from "express";
import inject from "light-my-request";
import { authorizationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/authorize.js";
import { clientRegistrationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/register.js";
import { revocationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/revoke.js";
import { tokenHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/token.js";
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
  OAuthError,
  ServerError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { checkResourceAllowed } from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import type { App } from "../contracts/app";
import { createAuthorization } from "../oauth/authorizations";
import { exchangeCode } from "../oauth/code-exchange";
import { clientName, findClient, registerClient } from "../oauth/clients";
import { refreshConnection, revokeToken } from "../oauth/connections";
import { ACCESS_LEVELS } from "../auth/scopes";

export { oauthAddresses };
import { CONSENT_PAGE, OAUTH_BASE, oauthAddresses, type OAuthAddresses } from "./oauth-paths";
import { answeredError, errorResponse } from "./respond";
import { readBytes } from "./body";
import { AppError } from "../errors";
import { entryPoint, takeRateLimit } from "./pipeline";
import { clientAddress } from "../client-address";

/**
 * OAuth for the MCP endpoint (docs/mcp.md#oauth, issue 28), on the MCP TypeScript SDK's authorization-server
 * handlers: they parse and check every request (client authentication, redirect URIs, PKCE S256,
 * registration metadata, revocation) and call the provider below, which keeps codes, connections
 * and tokens in the database (lib/oauth). The handlers are Express routers; each request is handed
 * to them in process with light-my-request and their answer handed back, so they run inside
 * Next's route handlers with nothing listening on another port. They are built per request: the
 * App holds no OAuth state, and the issuer follows the public origin (lib/public-url.ts).
 */

/** RFC 8414: what clients discover of this authorization server. */
export function authorizationServerMetadata({ issuer }: OAuthAddresses): OAuthMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_BASE}/authorize`,
    token_endpoint: `${issuer}${OAUTH_BASE}/token`,
    registration_endpoint: `${issuer}${OAUTH_BASE}/register`,
    revocation_endpoint: `${issuer}${OAUTH_BASE}/revoke`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_post", "none"],
    scopes_supported: [...ACCESS_LEVELS],
  };
}

/** RFC 9728: what the MCP endpoint says of itself, to a client it answered 401. */
export function protectedResourceMetadata({ issuer, resource }: OAuthAddresses): OAuthProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...ACCESS_LEVELS],
    bearer_methods_supported: ["header"],
    resource_name: "Skillgate MCP",
  };
}

/** A token bound to another resource (RFC 8707) is refused. */
function requireOurResource(requested: URL | string | null | undefined, addresses: OAuthAddresses): string | null {
  if (!requested) return null;
  if (!checkResourceAllowed({ requestedResource: requested, configuredResource: addresses.resource })) {
    throw new InvalidTargetError(`this server issues tokens for ${addresses.resource} only`);
  }
  return addresses.resource;
}

/**
 * Wraps a provider call so that what it throws that is not an OAuth answer (a database away, a
 * bug) is recorded: the SDK would answer it as a bare 500, or send the browser back to the client
 * with `server_error`; `serveOAuthStep` answers it as every route does instead.
 */
function keepingFailures(failures: unknown[]) {
  return <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (!(error instanceof OAuthError)) failures.push(error);
        throw error;
      }
    };
}

function provider(app: App, addresses: OAuthAddresses, failures: unknown[]): OAuthServerProvider {
  const kept = keepingFailures(failures);
  return {
    clientsStore: {
      getClient: kept((clientId: string) => findClient(app.db, clientId)),
      registerClient: kept((client: Parameters<typeof registerClient>[1]) => registerClient(app.db, client)),
    },
    authorize: kept(async (client, params, res) => {
      const id = await createAuthorization(app.db, {
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        state: params.state,
        resource: requireOurResource(params.resource, addresses) ?? undefined,
      });
      res.redirect(302, `${addresses.issuer}${CONSENT_PAGE}?request=${id}`);
    }),
    // The verifier is checked with the code, in its transaction (lib/oauth/code-exchange.ts), so
    // that a wrong one uses the code up; the SDK would check it before, with the code untouched.
    skipLocalPkceValidation: true,
    challengeForAuthorizationCode() {
      return Promise.reject(new ServerError("the code's challenge is checked by the exchange"));
    },
    exchangeAuthorizationCode: kept(async (client, code, verifier, redirectUri, resource) => {
      // A request for another server's tokens is refused before the code is looked at: it spends nothing.
      requireOurResource(resource, addresses);
      const outcome = await exchangeCode(
        app.db,
        { clientId: client.client_id, clientName: clientName(client), code, verifier: verifier ?? "", redirectUri },
        (kept) => requireOurResource(resource ?? kept, addresses),
      );
      if ("refused" in outcome) throw new InvalidGrantError(outcome.refused);
      return outcome.tokens;
    }),
    exchangeRefreshToken: kept(async (client, refreshToken, _scopes, resource) => {
      requireOurResource(resource, addresses);
      const tokens = await refreshConnection(app.db, client.client_id, refreshToken);
      if (!tokens) throw new InvalidGrantError("the refresh token is not valid, has expired or was revoked: sign in again");
      return tokens;
    }),
    verifyAccessToken() {
      // The MCP endpoint checks its tokens itself (lib/mcp/endpoint.ts); nothing here serves a resource.
      return Promise.reject(new InvalidTokenError("not a resource server"));
    },
    revokeToken: kept((client, request) => revokeToken(app.db, client.client_id, request.token)),
  };
}

export type OAuthStep = "authorize" | "token" | "register" | "revoke";

/** The SDK's handler for one step, with its in-memory rate limit off: the App's limiter guards the step instead. */
function stepRouter(step: OAuthStep, oauth: OAuthServerProvider): express.RequestHandler {
  switch (step) {
    case "authorize":
      return authorizationHandler({ provider: oauth, rateLimit: false });
    case "token":
      return tokenHandler({ provider: oauth, rateLimit: false });
    case "register":
      return clientRegistrationHandler({ clientsStore: oauth.clientsStore, rateLimit: false, clientSecretExpirySeconds: 0 });
    case "revoke":
      return revocationHandler({ provider: oauth, rateLimit: false });
  }
}

export function isOAuthStep(value: string): value is OAuthStep {
  return value === "authorize" || value === "token" || value === "register" || value === "revoke";
}

/** An answer in OAuth's own shape (RFC 6749 §5.2, RFC 7591 §3.2.2). */
function oauthRefusal(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { ...headers, "cache-control": "no-store" } });
}

/** An OAuth request is a few hundred bytes; the SDK's parsers would take 100 kB and answer more with an HTML page. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * A refusal of ours in OAuth's shape, which clients parse (the SDK's client reads any other body
 * as a server error): the request's own faults and its limits. What is not the request's fault —
 * an unknown step, the database away, a bug — keeps the API's envelope.
 */
function refusalOf(error: unknown, _req: Request, step: OAuthStep): Response {
  const { error: known, headers } = answeredError(error, "unexpected error");
  if (known.code === "RateLimited") return oauthRefusal(known.status, "too_many_requests", known.message, headers);
  if (known.status === 404 || known.status >= 500) return errorResponse(known, headers);
  return oauthRefusal(known.status, step === "register" ? "invalid_client_metadata" : "invalid_request", known.message, headers);
}

/**
 * What Express's body parsers refuse, which they would answer with an HTML page, as our errors.
 * Their messages are written for clients ("unsupported charset …"); a JSON parse error's is not,
 * and only registration reads JSON.
 */
function bodyParserRefusal(error: unknown): unknown {
  const { type, status, expose } = (error ?? {}) as { type?: string; status?: number; expose?: boolean };
  if (type === "entity.parse.failed") {
    return new AppError("InvalidJson", "the body is not valid JSON: send the client's metadata as one JSON object (RFC 7591)");
  }
  if (!expose || status === undefined || status >= 500) return error;
  const code = status === 413 ? "PayloadTooLarge" : status === 415 ? "UnsupportedMediaType" : "BadRequest";
  return new AppError(code, (error as Error).message);
}

/** Every value a request carries, from its query and its form or JSON body. */
function valuesOf(url: URL, body: Buffer | undefined, contentType: string | null): string[] {
  const values = [...url.searchParams.values()];
  if (!body) return values;
  const text = body.toString("utf8");
  if (contentType?.startsWith("application/x-www-form-urlencoded")) values.push(...new URLSearchParams(text).values());
  // A JSON body says NUL as an escape: the escape counts as the character.
  else values.push(/\\u0000/i.test(text) ? "\u0000" : text);
  return values;
}

/**
 * What is refused before the SDK's handler sees it. A NUL character, which no text column holds.
 * And at authorize, a request the SDK would refuse by sending the browser to the client's
 * redirect URI: any client may register any URI, so that would make this server an open
 * redirector (RFC 9700 §4.11.2); such a request is answered here, with nothing sent anywhere.
 */
function refusedBeforeHandler(step: OAuthStep, url: URL, values: string[], addresses: OAuthAddresses): Response | null {
  if (values.some((value) => value.includes("\u0000")))
    return oauthRefusal(400, "invalid_request", "a parameter holds a NUL character; remove it");
  if (step !== "authorize") return null;
  const query = url.searchParams;
  if (query.get("response_type") !== "code") return oauthRefusal(400, "unsupported_response_type", "response_type must be code");
  if (!query.get("code_challenge") || query.get("code_challenge_method") !== "S256") {
    return oauthRefusal(400, "invalid_request", "send a PKCE code_challenge with code_challenge_method=S256");
  }
  const resource = query.get("resource");
  if (
    resource !== null &&
    !(URL.canParse(resource) && checkResourceAllowed({ requestedResource: resource, configuredResource: addresses.resource }))
  ) {
    return oauthRefusal(400, "invalid_target", `this server issues tokens for ${addresses.resource} only`);
  }
  return null;
}

/** Counts a client registration against its address's hour (issue 38): the 21st is refused until the hour ends. */
async function takeRegistration(app: App, address: string): Promise<void> {
  const state = await app.registrations.take(`register ${address}`);
  if (state.admitted) return;
  const wait = state.resetSeconds;
  throw new AppError("RateLimited", `too many client registrations from this address (${state.limit} an hour); retry in ${wait} s`, wait);
}

/**
 * Serves one step of the flow, on the request pipeline (lib/http/pipeline.ts): what is its own is
 * its credential — none: the request counts against its address — the registrations' hour, what
 * is refused before the SDK's handler and OAuth's refusals. The request goes through the SDK's
 * handler and its answer comes back.
 */
export const serveOAuthStep = entryPoint<OAuthStep>("request", serveStep, refusalOf);

async function serveStep(req: Request, app: App, step: OAuthStep): Promise<Response> {
  // The SDK's own limits count in one process's memory; the App's are shared by every instance.
  const address = clientAddress(req.headers);
  await takeRateLimit(app, req, `oauth ${address}`, "address");
  if (step === "register" && req.method === "POST") await takeRegistration(app, address);
  const url = new URL(req.url);
  const addresses = oauthAddresses(req);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.from(await readBytes(req, MAX_BODY_BYTES));
  const refused = refusedBeforeHandler(step, url, valuesOf(url, body, req.headers.get("content-type")), addresses);
  if (refused) return refused;
  const failures: unknown[] = [];
  const server = express();
  server.disable("x-powered-by");
  server.use("/", stepRouter(step, provider(app, addresses, failures)));
  server.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    failures.push(bodyParserRefusal(error));
    res.status(500).end();
  });
  const answer = await inject(server, {
    method: req.method as "GET",
    url: `/${url.search}`,
    headers: Object.fromEntries(req.headers),
    ...(body ? { payload: body } : {}),
  });
  if (failures.length > 0) throw failures[0];
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || name === "connection" || name === "transfer-encoding") continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) headers.append(name, one);
  }
  const status = answer.statusCode;
  return new Response(status === 204 || status === 304 ? null : new Uint8Array(answer.rawPayload), { status, headers });
}
