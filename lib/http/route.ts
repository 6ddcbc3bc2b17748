import { getApp } from "../current-app";
import type { App } from "../root/app";
import type { KeyAuth } from "../auth/api-keys";
import { authenticateInstallLink } from "../teams/install-links";
import { grants, type Scope } from "../auth/scopes";
import { AppError } from "../errors";
import type { Actor } from "../learned/actor";
import type { z } from "zod";
import type { BodyOf, BodySpec, Operation } from "../contracts/operation";
import { parseWith } from "../validation";
import { readJsonValue } from "./body";
import { readQuery } from "./params";
import { errorResponse } from "./respond";

export interface AgentRequest<P> {
  req: Request;
  params: P;
  app: App;
  auth: KeyAuth;
  /** The agent session (`X-Agent-Session`), recorded with views and writes. */
  sessionId: string | null;
  /** The key as the author of a write. */
  actor: Actor & { kind: "key" };
}

type RouteParams = Record<string, string | string[]>;

/**
 * Every agent-facing route goes through this: API key by hash, scope, rate limit, then the
 * handler; any error becomes the one error envelope. A key never sees another team: handlers
 * only ever query with `auth.team.id`.
 */
export function agentRoute<P extends RouteParams = Record<string, never>>(
  scope: Scope,
  handler: (request: AgentRequest<P>) => Promise<Response>,
) {
  return async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const app = await getApp();
      const auth = await authenticateRequest(app, req);
      if (!grants(auth.scopes, scope)) {
        throw new AppError("Forbidden", `this API key lacks the "${scope}" scope; ask a lead for a key that has it`);
      }
      const sessionId = req.headers.get("x-agent-session")?.slice(0, 200) || null;
      const actor = { kind: "key" as const, keyId: auth.keyId, scopes: auth.scopes, sessionId };
      // Next gives no params at all to a route without dynamic segments.
      const params = ((await context.params) ?? {}) as P;
      refuseNulInPath(params);
      try {
        return await handler({ req, params, app, auth, sessionId, actor });
      } finally {
        app.views.flushAfterResponse(app.flushViewsAfterResponse);
      }
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** What a handler gets from its operation's contract: the path, query and body, each parsed. */
export interface OperationInput<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: BodyOf<B>;
}

/**
 * A route handler built from its operation's contract (lib/contracts): the key and scope are
 * checked, then the path, query and JSON body are parsed with the contract's schemas, so a
 * handler never declares a field of its own. A body that may also come as a gzip tar (a tree) is
 * left for the handler to read.
 */
export function route<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec>(
  operation: Operation<P, Q, B>,
  handler: (input: OperationInput<P, Q, B>, request: AgentRequest<Record<string, string | string[]>>) => Promise<Response>,
) {
  if (!operation.scope) throw new Error(`${operation.operationId} is public: it is not an agent route`);
  return agentRoute<Record<string, string | string[]>>(operation.scope, async (request) => {
    const params = operation.params ? parseWith(operation.params, request.params, "InvalidPath") : {};
    const query = operation.query ? readQuery(request.req, operation.query) : {};
    const body = await readBody(operation.body, request.req);
    return handler({ params, query, body } as OperationInput<P, Q, B>, request);
  });
}

async function readBody(spec: BodySpec | undefined, req: Request): Promise<unknown> {
  if (!spec || spec.alsoAccepts) return undefined;
  const value = await readJsonValue(req, spec.maxBytes);
  return spec.parse ? spec.parse(value) : parseWith(spec.schema, value, "InvalidField");
}

/** `%00` decodes to a character no text column can hold: refused here, for every route, before any query. */
function refuseNulInPath(params: RouteParams): void {
  const values = Object.values(params).flat();
  if (values.some((value) => value.includes("\u0000"))) {
    throw new AppError("InvalidPath", "the path holds a NUL character (%00); remove it");
  }
}

/** The request's bearer key, looked up by hash, with one request taken from its rate limit. Shared by REST and MCP. */
export async function authenticateRequest(app: App, req: Request): Promise<KeyAuth> {
  const header = req.headers.get("authorization");
  const key = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  if (!key) throw new AppError("Unauthorized", "send the team's API key as Authorization: Bearer <key>");
  const auth = await app.keys.authenticate(key);
  if (!auth) throw new AppError("Unauthorized", "this API key is not valid or was revoked");
  await takeRateLimit(app, String(auth.keyId), "API key");
  return auth;
}

/**
 * A route an install link opens (§12): the token in the path is the credential, so no header is
 * needed, and it opens nothing but these routes. Rate-limited per link, as keys are.
 */
export function installLinkRoute<P extends z.ZodObject<{ token: z.ZodString }>>(
  operation: Operation<P>,
  handler: (params: z.infer<P>, request: { req: Request; app: App; team: KeyAuth["team"] }) => Promise<Response>,
) {
  return async (req: Request, context: { params: Promise<RouteParams> }): Promise<Response> => {
    try {
      const app = await getApp();
      const raw = await context.params;
      refuseNulInPath(raw);
      const token = typeof raw.token === "string" ? raw.token : "";
      const link = await authenticateInstallLink(app.database, token);
      if (!link) throw new AppError("Unauthorized", "this install link is not valid or was revoked; ask a lead for a new one");
      await takeRateLimit(app, `link:${link.linkId}`, "install link");
      const params = operation.params ? parseWith(operation.params, raw, "InvalidPath") : ({} as z.infer<P>);
      return await handler(params, { req, app, team: link.team });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

async function takeRateLimit(app: App, who: string, what: string): Promise<void> {
  const wait = app.limiter ? await app.limiter.take(who) : null;
  if (wait !== null) throw new AppError("RateLimited", `too many requests for this ${what}; retry in ${wait} s`, wait);
}
