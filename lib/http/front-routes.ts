import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "next/dist/compiled/compression";
import { SECURITY_HEADERS } from "../security/headers";

/**
 * The two requests every agent makes over and over — the listing and skill_view — and the files an
 * installer asks for through an install link, all at once, answered in front of Next's router once
 * Next has loaded their route (docs/decisions/front-routes.md). The answer is the route's own
 * handler, the same function Next calls, with the same App: only Next's routing (and, for install
 * links, the proxy's rewrite) and its request and response machinery are left out, a millisecond
 * of CPU a request and more. Anything that is not exactly such a request (another method, a path
 * with a character Next would decode or a segment it would resolve, another path) goes to Next as
 * before.
 */

type Params = Record<string, string | string[]>;
/** A route handler as Next calls it. */
type RouteHandler = (req: Request, context: { params: Promise<Params> }) => Promise<Response>;

/**
 * A file under an install link, `/i/<token>/.well-known/skills/<name>/<file>` (lib/http/installer-paths.ts),
 * in segments Next would not decode or resolve: letters, digits, `_`, `-` and dots, not first.
 */
const INSTALL_LINK_FILE =
  /^\/i\/([A-Za-z0-9_-]+)\/\.well-known\/skills\/((?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

/** Which routes may be answered in front: for a path that is theirs, the params Next would give the route. */
const FRONT_PATHS = {
  listing: (path: string): Params | null => (path === "/api/v1/listing" ? {} : null),
  skill_view: (path: string): Params | null => {
    const name = /^\/api\/v1\/skills\/([a-z0-9][a-z0-9-]{0,63})$/.exec(path)?.[1];
    return name === undefined ? null : { name };
  },
  install_link: (path: string): Params | null => {
    const [, token, file] = INSTALL_LINK_FILE.exec(path) ?? [];
    return token && file ? { token, path: file.split("/") } : null;
  },
} as const;
export type FrontRoute = keyof typeof FRONT_PATHS;
const ROUTES = Object.keys(FRONT_PATHS) as FrontRoute[];

/**
 * Filled by the route modules as Next loads them (one process, two module graphs: next.config.ts
 * loads this file for the server, the build bundles it into the routes), so it lives on the process.
 */
const REGISTRY = Symbol.for("skillgate.front-routes");
type Registry = Partial<Record<FrontRoute, RouteHandler>>;
function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= {});
}

/**
 * Called by a route module: its GET may be answered in front of Next from now on, with the params
 * `FRONT_PATHS` reads off the path, which are the route's own.
 */
export function serveInFront<P extends Params>(
  route: FrontRoute,
  handler: (req: Request, context: { params: Promise<P> }) => Promise<Response>,
): void {
  registry()[route] = handler as RouteHandler;
}

/** Next's response compression (next.config's `compress`, on by default), applied as Next applies it. */
const compress = compression();

/**
 * Answers the request in front of Next when it is one of the front routes and Next has loaded it;
 * false leaves it to Next.
 */
export function answerInFront(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" || !req.url) return false;
  const query = req.url.indexOf("?");
  const path = query === -1 ? req.url : req.url.slice(0, query);
  const front = frontRoute(path);
  const handler = front && registry()[front.route];
  if (!front || !handler) return false;
  const { params } = front;
  compress(req, res, () => {});
  void handler(webRequest(req), { params: Promise.resolve(params) }).then(
    (response) => send(res, response),
    (error: unknown) => {
      // Not reached: the route's own handler answers whatever it throws (lib/http/pipeline.ts).
      console.error("skillgate: a route answered in front of Next threw:", error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    },
  );
  return true;
}

/** The front route a path is, with its params; null for any other path. */
function frontRoute(path: string): { route: FrontRoute; params: Params } | null {
  for (const route of ROUTES) {
    const params = FRONT_PATHS[route](path);
    if (params) return { route, params };
  }
  return null;
}

/**
 * The request as Next's route handler gets it: its URL on the server's own origin, as Next builds
 * it (the port the connection came in on, which the socket keeps once asked).
 */
function webRequest(req: IncomingMessage): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted;
  const protocol = encrypted || req.headers["x-forwarded-proto"]?.includes("https") ? "https" : "http";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  return new Request(`${protocol}://localhost:${req.socket.localPort}${req.url}`, { method: "GET", headers });
}

/**
 * What Next's server says on every answer of an app route (`setVaryHeader`), which a cache in front
 * keys on: said here too, so that an answer is cached alike whichever way it came.
 */
const NEXT_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/**
 * The answer written as Next writes it, with the headers next.config.ts adds to every answer; its
 * length is said (Next streams it, chunked), unless compression takes it off.
 */
async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  res.setHeader("vary", NEXT_VARY);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
  if (body) res.setHeader("content-length", body.byteLength);
  res.end(body);
}
