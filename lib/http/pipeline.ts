import { asLongWork, REQUEST_DEADLINE_MS, withDeadline } from "@/db/budget";
import type { DatabaseHealth } from "@/db/client";
import { isUnanswered } from "@/db/outage";
import type { App } from "../contracts/app";
import { bootedApp, getApp } from "../current-app";
import { secondsSince, type AnswerStore, type LastAnswers } from "../answer-store";
import type { Known, Stale, StaleKeyAuth } from "../auth/key-cache";
import type { LinkAuth } from "../auth/install-link-auth";
import { authenticateAccessToken, looksLikeOAuthToken } from "../oauth/connections";
import { AppError } from "../errors";
import type { RateLimitState } from "../security/rate-limit";
import { recordRateLimit, withRateLimitHeaders } from "./rate-limit-headers";

/**
 * The one request pipeline. Every entry point that counts its requests — REST routes and install
 * links (lib/http/route.ts), the OTLP receiver (lib/http/otlp-route.ts), the MCP endpoint
 * (lib/mcp/endpoint.ts) and the OAuth steps (lib/http/oauth.ts) — is these steps, in this order:
 *
 *   budget → credential and its team → limit → scope → parse → handle → answer | stale | error
 *
 * `entryPoint` holds what they all do (the budget, the App, the refusal, the request's count on
 * the answer); each entry point says only what is its own: which credential it takes, which scope
 * it needs, how it parses, answers and refuses. The limit is taken before the scope is checked: a
 * key refused for its scope has still spent a request, and its answer says so.
 * docs/decisions/request-pipeline.md has the why.
 */

/** How much of the database a request may spend: a request's deadline, or long work (db/budget.ts). */
export type Budget = "request" | "long";

/** What an entry point does with a request, given the App: its credential, scope, parsing and answer. */
type Work<C> = (req: Request, app: App, context: C) => Promise<Response>;
/** What it answers for what its work throws, in its own format (the error envelope, OTLP's, OAuth's). */
type Refuse<C> = (error: unknown, req: Request, context: C) => Response;

/**
 * A route handler made of an entry point's work: within its budget (every agent request answers
 * within 5 s unless it is long work), what it throws answered by `refuse`, and whatever it answers
 * saying the request's count (`X-RateLimit-*`, lib/http/rate-limit-headers.ts). `C` is what the
 * handler is called with besides the request: Next's `{ params }`, or the entry point's own.
 */
export function entryPoint<C>(budget: Budget, work: Work<C>, refuse: Refuse<C>): (req: Request, context: C) => Promise<Response> {
  if (budget === "long") return (req, context) => asLongWork(() => answer(req, context, work, refuse));
  return (req, context) => withDeadline(REQUEST_DEADLINE_MS, () => answer(req, context, work, refuse));
}

async function answer<C>(req: Request, context: C, work: Work<C>, refuse: Refuse<C>): Promise<Response> {
  let response: Response;
  try {
    response = await work(req, bootedApp() ?? (await getApp()), context);
  } catch (error) {
    response = refuse(error, req, context);
  }
  return withRateLimitHeaders(req, response);
}

/** The bearer of an `Authorization` header; null when there is none. */
export function bearerOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  return (header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined) ?? null;
}

/** Which bearers an entry point takes, and what it tells a request that sent none. */
export interface Bearers {
  /** OAuth access tokens of connections (lib/oauth/connections.ts), besides API keys. */
  connections: boolean;
  /** What a request with no bearer is told: how to authenticate. */
  missing: string;
}

/** REST's and OTLP's: a team's API key. */
export const API_KEYS: Bearers = { connections: false, missing: "send the team's API key as Authorization: Bearer <key>" };

/** The words every refused API key gets, on REST and MCP alike (issue 28). */
const INVALID_KEY = "API key not valid or revoked; ask a lead for a new one";
const INVALID_ACCESS_TOKEN = "access token not valid, expired or revoked: refresh it, or sign in again";
const INVALID_LINK = "this install link is not valid or was revoked; ask a lead for a new one";

/**
 * Credential, team, limit: the request's bearer as its team's key — an API key by its hash (from
 * the App's cache; known from memory while the database is away), or, where the entry point takes
 * them, a connection's access token, which acts as the key row of its connection — with one
 * request taken from its limit. Handlers only ever query with its `team.id`: a key never sees
 * another team.
 */
export function authenticate(app: App, req: Request, bearers: Bearers): StaleKeyAuth | Promise<StaleKeyAuth> {
  const bearer = bearerOf(req);
  if (bearer === null) throw new AppError("Unauthorized", bearers.missing);
  if (bearers.connections && looksLikeOAuthToken(bearer)) return authenticateConnection(app, req, bearer);
  const known = app.keys.authenticate(bearer);
  return counted(
    app,
    req,
    known,
    () => new AppError("InvalidToken", INVALID_KEY),
    (auth) => [String(auth.keyId), "API key"],
  );
}

async function authenticateConnection(app: App, req: Request, bearer: string): Promise<StaleKeyAuth> {
  const connection = await authenticateAccessToken(app.database, app.db, bearer);
  if (!connection) throw new AppError("InvalidToken", INVALID_ACCESS_TOKEN);
  await takeRateLimit(app, req, String(connection.keyId), "connection");
  return connection;
}

/**
 * Credential, team, limit for an install link (docs/teams-and-keys.md#install-links): the token in the path is the credential, so
 * no header is needed. Rate-limited per link, as keys are.
 */
export function authenticateLink(app: App, req: Request, token: string): Stale<LinkAuth> | Promise<Stale<LinkAuth>> {
  const known = app.keys.authenticateLink(token);
  return counted(
    app,
    req,
    known,
    () => new AppError("Unauthorized", INVALID_LINK),
    (link) => [`link:${link.linkId}`, "install link"],
  );
}

/**
 * A key or a link as the App's cache knows it, refused when it is none, with its request taken
 * from its limit under `limitOf`'s name. A credential kept and a request from the lease this
 * instance holds are answered at once, not as a promise: a warm request awaits neither
 * (docs/hot-path.md).
 */
function counted<C>(
  app: App,
  req: Request,
  known: Known<C>,
  refusal: () => AppError,
  limitOf: (credential: C) => [who: string, what: string],
): C | Promise<C> {
  const take = (credential: C | null): C | Promise<C> => {
    if (!credential) throw refusal();
    const taken = takeRateLimit(app, req, ...limitOf(credential));
    return taken ? taken.then(() => credential) : credential;
  };
  return known instanceof Promise ? known.then(take) : take(known);
}

/**
 * Counts the request against `who`'s limit, recording the state its answer's headers say
 * (lib/http/rate-limit-headers.ts); refuses it past the limit. At once while this instance holds
 * what the window has left; a promise only when it must claim more from the database.
 */
export function takeRateLimit(app: App, req: Request, who: string, what: string): Promise<void> | undefined {
  if (!app.limiter) return undefined;
  const state = app.limiter.take(who);
  if (state instanceof Promise) return state.then((claimed) => admitted(req, claimed, what));
  admitted(req, state, what);
  return undefined;
}

/** Records the request's count for its headers, and refuses it when the limit did not admit it. */
function admitted(req: Request, state: RateLimitState, what: string): void {
  recordRateLimit(req, state);
  const wait = state.resetSeconds;
  if (!state.admitted) throw new AppError("RateLimited", `too many requests for this ${what}; retry in ${wait} s`, wait);
}

/** `%00` decodes to a character no text column can hold: refused for every route, before any query. */
export function refuseNulInPath(params: Record<string, string | string[]>): void {
  const values = Object.values(params).flat();
  if (values.some((value) => value.includes("\u0000"))) {
    throw new AppError("InvalidPath", "the path holds a NUL character (%00); remove it");
  }
}

/** How one kind of answer is kept for an outage and given again: REST's responses, MCP's tool results. */
export interface Keeping<T, K> {
  store: (answers: LastAnswers) => AnswerStore<K>;
  /** Keeps a fresh answer under `key` (or not) and gives back what to send: at once when nothing is to be copied. */
  keep: (store: AnswerStore<K>, key: string, fresh: T, teamChanges: number) => T | Promise<T>;
  /** The answer of a kept one, marked as `staleSeconds` old. */
  stale: (kept: K, staleSeconds: number) => T;
}

/**
 * What agents read (docs/outages.md#stale-answers), on REST and MCP alike: the fresh answer, kept for an outage; or, when
 * the database does not answer, the answer this instance last gave the same request for the same
 * team, marked stale — unless a change to the team was heard since (a revoked key or link, new
 * settings, a new catalog). `whenStale` does what the fresh answer would have done besides
 * answering (skill_view records the view).
 */
export function answerOrLast<T, K>(
  app: App,
  keeping: Keeping<T, K>,
  teamId: number,
  request: string,
  fresh: () => Promise<T>,
  whenStale?: (kept: K) => void,
): Promise<T> {
  const store = keeping.store(app.lastAnswers);
  const key = `${teamId} ${request}`;
  const teamChanges = app.keys.changesOf(teamId);
  // One `then`, not an async function's own promises: this is on every agent read (docs/hot-path.md).
  return freshOrThrown(fresh).then(
    (answer) => keeping.keep(store, key, answer, teamChanges),
    (error: unknown) => {
      const last = isUnanswered(error) ? store.find(key, app.keys.changesOf(teamId)) : null;
      if (!last) throw error;
      whenStale?.(last.value);
      return keeping.stale(last.value, last.staleSeconds);
    },
  );
}

/** The fresh answer's promise; what it throws before it has one, as a rejection. */
function freshOrThrown<T>(fresh: () => Promise<T>): Promise<T> {
  try {
    return fresh();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * How long what a request is answered with has been known only from memory: since its
 * credential's last confirmation, or — the database found away — its last answer (docs/outages.md#stale-answers: marked
 * from the first second; nothing reaches the database while it is away). Undefined when fresh.
 */
export function secondsFromMemory(health: DatabaseHealth, auth: Stale<unknown>): number | undefined {
  const since = auth.staleSince ?? (health.away ? health.answeredAt : undefined);
  return since === undefined ? undefined : secondsSince(since);
}
