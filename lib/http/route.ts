import type { App } from "../contracts/app";
import type { StaleKeyAuth } from "../auth/key-cache";
import type { LinkTeam } from "../auth/install-link-auth";
import { requireScope } from "../auth/scopes";
import type { KeptResponse } from "../answer-store";
import type { Actor } from "../learned/actor";
import type { z } from "zod";
import type { BodyOf, BodySpec, Operation } from "../contracts/operation";
import { parseWith } from "../validation";
import { readJsonValue } from "./body";
import { readQuery } from "./params";
import { errorResponse } from "./respond";
import { markedIfFromMemory, RESPONSES } from "./last-answers";
import { answerOrLast, API_KEYS, authenticate, authenticateLink, entryPoint, refuseNulInPath } from "./pipeline";

/**
 * REST (docs/api.md) and the install links' routes (docs/teams-and-keys.md#install-links), on the request pipeline (lib/http/pipeline.ts):
 * what is their own is the credential (an API key in the header, or an install link's token in
 * the path), the operation's contract (its scope and schemas) and the handler. Any error becomes
 * the one error envelope. An answer made while the credential was known only from memory (the
 * database away) says so (`X-Skillgate-Stale`), refusals too.
 */

type RouteParams = Record<string, string | string[]>;
/** What Next hands a route handler besides the request: its path's parameters. */
interface RouteContext<P> {
  params: Promise<P>;
}

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

/** What a handler gets from its operation's contract: the path, query and body, each parsed. */
export interface OperationInput<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: BodyOf<B>;
}

type Handler<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> = (
  input: OperationInput<P, Q, B>,
  request: AgentRequest<RouteParams>,
) => Promise<Response>;

type WhenStale<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec> = (
  input: OperationInput<P, Q, B>,
  request: AgentRequest<RouteParams>,
  kept: KeptResponse,
) => void;

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
  whenStale?: WhenStale<P, Q, B>,
) {
  const scope = operation.scope;
  if (!scope) throw new Error(`${operation.operationId} is public: it is not an agent route`);
  return entryPoint<RouteContext<RouteParams>>(
    operation.longWork ? "long" : "request",
    async (req, app, context) => {
      // A warm request awaits only what is not in memory (docs/hot-path.md): a kept key, and no params.
      const authenticated = authenticate(app, req, API_KEYS);
      const auth = authenticated instanceof Promise ? await authenticated : authenticated;
      requireScope(auth, scope);
      const sessionId = req.headers.get("x-agent-session")?.slice(0, 200) || null;
      const actor = { kind: "key" as const, keyId: auth.keyId, credential: auth.credential, scopes: auth.scopes, sessionId };
      // Next gives no params at all to a route without dynamic segments.
      const params = context.params === undefined ? {} : ((await context.params) ?? {});
      refuseNulInPath(params);
      const request = { req, params, app, auth, sessionId, actor };
      let response: Response;
      try {
        response = await operationAnswer(operation, handler, whenStale, request);
      } catch (error) {
        response = errorResponse(error);
      } finally {
        app.views.flushAfterResponse(app.flushViewsAfterResponse);
      }
      return markedIfFromMemory(response, app.database.health, auth);
    },
    refused,
  );
}

/**
 * The handler's answer to the parsed request; what it throws, at once or later, its caller answers
 * as the refusal it is. Not an async function: a GET with no body goes straight to its handler.
 */
function operationAnswer<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec>(
  operation: Operation<P, Q, B>,
  handler: Handler<P, Q, B>,
  whenStale: WhenStale<P, Q, B> | undefined,
  request: AgentRequest<RouteParams>,
): Promise<Response> {
  const { req } = request;
  const parsed = {
    params: operation.params ? parseWith(operation.params, request.params, "InvalidPath") : {},
    query: operation.query ? readQuery(req, operation.query) : {},
  };
  const body = operation.body && !operation.body.alsoAccepts ? operation.body : undefined;
  if (!body) return answerParsed(operation, handler, whenStale, request, { ...parsed, body: undefined } as OperationInput<P, Q, B>);
  return readBody(body, req).then((value) =>
    answerParsed(operation, handler, whenStale, request, { ...parsed, body: value } as OperationInput<P, Q, B>),
  );
}

function answerParsed<P extends z.ZodType, Q extends z.ZodType, B extends BodySpec>(
  operation: Operation<P, Q, B>,
  handler: Handler<P, Q, B>,
  whenStale: WhenStale<P, Q, B> | undefined,
  request: AgentRequest<RouteParams>,
  input: OperationInput<P, Q, B>,
): Promise<Response> {
  if (!operation.servesStale) return handler(input, request);
  return answerOrLast(
    request.app,
    RESPONSES,
    request.auth.team.id,
    // The whole URL: the same request, whatever host it came by, is one more entry at worst.
    request.req.url,
    () => handler(input, request),
    whenStale && ((kept) => whenStale(input, request, kept)),
  );
}

async function readBody(spec: BodySpec, req: Request): Promise<unknown> {
  const value = await readJsonValue(req, spec.maxBytes, { optional: spec.optional });
  return spec.parse ? spec.parse(value) : parseWith(spec.schema, value, "InvalidField");
}

function refused(error: unknown): Response {
  return errorResponse(error);
}

type LinkParams = z.ZodObject<{ token: z.ZodString }>;
type LinkHandler<P extends LinkParams> = (params: z.infer<P>, request: { req: Request; app: App; team: LinkTeam }) => Promise<Response>;

/**
 * A route an install link opens (docs/teams-and-keys.md#install-links): the token in the path is the credential, and it opens
 * nothing but these routes. What it opens is answered fresh; or, while the database does not
 * answer, as this instance last answered the same path (the token is in it), unless a change to
 * the link's team was heard since — a revoked link is such a change (migration 0024).
 */
export function installLinkRoute<P extends LinkParams>(operation: Operation<P>, handler: LinkHandler<P>) {
  return entryPoint<RouteContext<RouteParams>>(
    "request",
    async (req, app, context) => {
      const raw = await context.params;
      refuseNulInPath(raw);
      const link = await authenticateLink(app, req, typeof raw.token === "string" ? raw.token : "");
      const answer = async (): Promise<Response> => {
        const params = operation.params ? parseWith(operation.params, raw, "InvalidPath") : ({} as z.infer<P>);
        return handler(params, { req, app, team: link.team });
      };
      let response: Response;
      try {
        response = await answerOrLast(app, RESPONSES, link.team.id, req.url, answer);
      } catch (error) {
        response = errorResponse(error);
      }
      return markedIfFromMemory(response, app.database.health, link);
    },
    refused,
  );
}
