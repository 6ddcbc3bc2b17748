import { asLongWork, REQUEST_DEADLINE_MS, withDeadline } from "@/db/budget";
import { isUnanswered } from "@/db/outage";
import { getApp } from "../current-app";
import type { App } from "../contracts/app";
import type { StaleKeyAuth } from "../auth/key-cache";
import type { LinkTeam } from "../auth/install-link-auth";
import { requireScope, type Scope } from "../auth/scopes";
import { AppError } from "../errors";
import type { Actor } from "../learned/actor";
import type { z } from "zod";
import type { BodyOf, BodySpec, Operation } from "../contracts/operation";
import { parseWith } from "../validation";
import { readJsonValue } from "./body";
import { readQuery } from "./params";
import { errorResponse } from "./respond";
import { recordRateLimit, withRateLimitHeaders } from "./rate-limit-headers";
import { keepable, markedIfFromMemory, staleResponse } from "./last-answers";
import type { KeptResponse } from "../answer-store";

export interface AgentRequest<P> {
  req: Request;
  params: P;
  app: App;
  /** The key; `staleSince` says it was known from memory while the database is away. */
  auth: StaleKeyAuth;
  /** The agent session (`X-Agent-Session`), recorded with views and writes. */
  sessionId: string | null;
  /** The key as the author of a write. */
  actor: Actor & { kind: "key" };
}

type RouteParams = Record<string, string | string[]>;

/** How much of the database a request may spend: a request's deadline, or long work (db/budget.ts). */
export type Budget = "request" | "long";

/** Runs a request's work within its budget: every agent request answers within 5 s unless it is long work. */
export function withinBudget<T>(budget: Budget, work: () => Promise<T>): Promise<T> {
  return budget === "long" ? asLongWork(work) : withDeadline(REQUEST_DEADLINE_MS, work);
}

/**
 * Every agent-facing route goes through this: API key by hash, scope, rate limit, then the
 * handler; any error becomes the one error envelope. A key never sees another team: handlers
 * only ever query with `auth.team.id`. An answer made while the key was known only from memory
 * (the database away) says so (`X-Skillgate-Stale`); every answer once the key is known says its
 * limit (`X-RateLimit-*`, lib/http/rate-limit-headers.ts).
 */
export function agentRoute<P extends RouteParams = Record<string, never>>(
  scope: Scope,
  handler: (request: AgentRequest<P>) => Promise<Response>,
  budget: Budget = "request",
) {
  return (req: Request, context: { params: Promise<P> }): Promise<Response> =>
    withinBudget(budget, async () => withRateLimitHeaders(req, await serveAgent(scope, handler, req, context)));
}

async function serveAgent<P extends RouteParams>(
  scope: Scope,
  handler: (request: AgentRequest<P>) => Promise<Response>,
  req: Request,
  context: { params: Promise<P> },
): Promise<Response> {
  try {
    const app = await getApp();
    const auth = await authenticateRequest(app, req);
    requireScope(auth, scope);
    const sessionId = req.headers.get("x-agent-session")?.slice(0, 200) || null;
    const actor = { kind: "key" as const, keyId: auth.keyId, credential: auth.credential, scopes: auth.scopes, sessionId };
    // Next gives no params at all to a route without dynamic segments.
    const params = ((await context.params) ?? {}) as P;
    refuseNulInPath(params);
    try {
      return markedIfFromMemory(await answered(() => handler({ req, params, app, auth, sessionId, actor })), app.database.health, auth);
    } finally {
      app.views.flushAfterResponse(app.flushViewsAfterResponse);
    }
  } catch (error) {
    return errorResponse(error);
  }
}

/** What a handler gets from its operation's contract: the path, query and body, each parsed. */
export interface OperationInput<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: BodyOf<B>;
}

type Handler<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> = (
  input: OperationInput<P, Q, B>,
  request: AgentRequest<Record<string, string | string[]>>,
) => Promise<Response>;

/**
 * A route handler built from its operation's contract (lib/contracts): the key and scope are
 * checked, then the path, query and JSON body are parsed with the contract's schemas, so a
 * handler never declares a field of its own. A body that may also come as a gzip tar (a tree) is
 * left for the handler to read. An operation that `servesStale` answers from this instance's last
 * answer while the database is away; `whenStale` does what the fresh answer would have done
 * besides answering (skill_view records the view).
 */
export function route<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec>(
  operation: Operation<P, Q, B>,
  handler: Handler<P, Q, B>,
  whenStale?: (input: OperationInput<P, Q, B>, request: AgentRequest<RouteParams>, kept: KeptResponse) => void,
) {
  if (!operation.scope) throw new Error(`${operation.operationId} is public: it is not an agent route`);
  return agentRoute<Record<string, string | string[]>>(
    operation.scope,
    async (request) => {
      const params = operation.params ? parseWith(operation.params, request.params, "InvalidPath") : {};
      const query = operation.query ? readQuery(request.req, operation.query) : {};
      const body = await readBody(operation.body, request.req);
      const input = { params, query, body } as OperationInput<P, Q, B>;
      if (!operation.servesStale) return handler(input, request);
      return answerOrLast(
        request,
        request.auth.team.id,
        () => handler(input, request),
        (kept) => whenStale?.(input, request, kept),
      );
    },
    operation.longWork ? "long" : "request",
  );
}

/**
 * The fresh answer, kept for an outage; or, when the database is away, the answer this instance
 * last gave the same request for the same team, marked stale.
 */
async function answerOrLast(
  { req, app }: { req: Request; app: App },
  teamId: number,
  answer: () => Promise<Response>,
  whenStale: (kept: KeptResponse) => void,
): Promise<Response> {
  // The whole URL: the same request, whatever host it came by, is one more entry at worst.
  const key = `${teamId} ${req.url}`;
  const teamChanges = app.keys.changesOf(teamId);
  try {
    const response = await answer();
    if (response.status !== 200) return response;
    const etag = response.headers.get("etag");
    if (etag !== null && app.lastAnswers.responses.confirm(key, etag, teamChanges)) return response;
    const { kept, response: again } = await keepable(response);
    app.lastAnswers.responses.keep(key, kept, kept.body.byteLength, teamChanges, etag);
    return again;
  } catch (error) {
    const last = isUnanswered(error) ? app.lastAnswers.responses.find(key, app.keys.changesOf(teamId)) : null;
    if (!last) throw error;
    whenStale(last.value);
    return staleResponse(last.value, last.staleSeconds);
  }
}

async function readBody(spec: BodySpec | undefined, req: Request): Promise<unknown> {
  if (!spec || spec.alsoAccepts) return undefined;
  const value = await readJsonValue(req, spec.maxBytes, { optional: spec.optional });
  return spec.parse ? spec.parse(value) : parseWith(spec.schema, value, "InvalidField");
}

/** `%00` decodes to a character no text column can hold: refused here, for every route, before any query. */
function refuseNulInPath(params: RouteParams): void {
  const values = Object.values(params).flat();
  if (values.some((value) => value.includes("\u0000"))) {
    throw new AppError("InvalidPath", "the path holds a NUL character (%00); remove it");
  }
}

/** The words every refused API key gets, on REST and MCP alike (issue 28). */
export const INVALID_KEY_MESSAGE = "API key not valid or revoked; ask a lead for a new one";
const invalidKey = () => new AppError("InvalidToken", INVALID_KEY_MESSAGE);

/** The bearer of an `Authorization` header; null when there is none. */
export function bearerOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  return (header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined) ?? null;
}

/** The request's bearer key, looked up by hash, with one request taken from its rate limit. Shared by REST and MCP. */
export async function authenticateRequest(app: App, req: Request): Promise<StaleKeyAuth> {
  const key = bearerOf(req);
  if (!key) throw new AppError("Unauthorized", "send the team's API key as Authorization: Bearer <key>");
  const auth = await app.keys.authenticate(key);
  if (!auth) throw invalidKey();
  await takeRateLimit(app, req, String(auth.keyId), "API key");
  return auth;
}

type LinkParams = z.ZodObject<{ token: z.ZodString }>;
type LinkHandler<P extends LinkParams> = (params: z.infer<P>, request: { req: Request; app: App; team: LinkTeam }) => Promise<Response>;

/**
 * A route an install link opens (§12): the token in the path is the credential, so no header is
 * needed, and it opens nothing but these routes. Rate-limited per link, as keys are, and says so
 * (`X-RateLimit-*`).
 */
export function installLinkRoute<P extends LinkParams>(operation: Operation<P>, handler: LinkHandler<P>) {
  return (req: Request, context: { params: Promise<RouteParams> }): Promise<Response> =>
    withinBudget("request", async () => withRateLimitHeaders(req, await serveLink(operation, handler, req, context)));
}

async function serveLink<P extends LinkParams>(
  operation: Operation<P>,
  handler: LinkHandler<P>,
  req: Request,
  context: { params: Promise<RouteParams> },
): Promise<Response> {
  try {
    const app = await getApp();
    const raw = await context.params;
    refuseNulInPath(raw);
    const token = typeof raw.token === "string" ? raw.token : "";
    return await answerByLink(app, req, token, (team) => {
      const params = operation.params ? parseWith(operation.params, raw, "InvalidPath") : ({} as z.infer<P>);
      return handler(params, { req, app, team });
    });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * What an install link opens, fresh; or, while the database does not answer, this instance's last
 * answer to the same path (the token is in it), unless a change to the link's team was heard since
 * — a revoked link is such a change (migration 0024). An answer made while the link was known only
 * from memory says so.
 */
async function answerByLink(app: App, req: Request, token: string, answer: (team: LinkTeam) => Promise<Response>) {
  const link = await app.keys.authenticateLink(token);
  if (!link) throw new AppError("Unauthorized", "this install link is not valid or was revoked; ask a lead for a new one");
  await takeRateLimit(app, req, `link:${link.linkId}`, "install link");
  const response = await answered(() =>
    answerOrLast(
      { req, app },
      link.team.id,
      () => answer(link.team),
      () => {},
    ),
  );
  return markedIfFromMemory(response, app.database.health, link);
}

/** The handler's answer, or its refusal as an answer: either may come from memory. */
async function answered(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    return errorResponse(error);
  }
}

/** Counts the request against `who`'s limit, recording the state its answer's headers say (lib/http/rate-limit-headers.ts). */
export async function takeRateLimit(app: App, req: Request, who: string, what: string): Promise<void> {
  if (!app.limiter) return;
  const state = await app.limiter.take(who);
  recordRateLimit(req, state);
  const wait = state.resetSeconds;
  if (!state.admitted) throw new AppError("RateLimited", `too many requests for this ${what}; retry in ${wait} s`, wait);
}
