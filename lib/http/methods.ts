import { AppError } from "../errors";
import { errorResponse } from "./respond";
import { REFUSED_METHOD_HEADER } from "./served-methods";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];
// Route handlers take a context whose params differ per route.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (req: Request, context: any) => Promise<Response> | Response;
/** Any route handler: Next's own take a NextRequest. */
type RouteHandler = (req: never, context: never) => Promise<Response> | Response;

/**
 * The method a client sent. A method Next does not serve (TRACE, PROPFIND, …) reaches the app as
 * OPTIONS with the real one in a header the server sets (lib/http/unserved-methods.ts); null when
 * the request is a real OPTIONS or any other method. The header's value is a method token or nothing.
 */
export function refusedMethod(req: Request): string | null {
  const method = req.headers.get(REFUSED_METHOD_HEADER);
  return req.method === "OPTIONS" && method && /^[A-Z-]{1,32}$/i.test(method) ? method : null;
}

/** The method a client sent, for messages: the refused one where the server passed it on as OPTIONS. */
export function clientMethod(req: Request): string {
  return refusedMethod(req) ?? req.method;
}

/** The 405 for a method `what` does not serve, in the envelope (docs/api.md#errors), with what it does serve. */
export function methodNotAllowed(method: string, allow: string, what = "route"): Response {
  return errorResponse(new AppError("MethodNotAllowed", `${method} is not allowed here; this ${what} answers ${allow}`), { allow });
}

/**
 * The answers of a route for the methods it does not implement. Next's own are an empty 405
 * without `Allow`; every `/api` answer is the error envelope (docs/api.md#errors), so each route file exports
 * these beside its handlers: `export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST })`.
 * HEAD is GET without a body (Next drops it), OPTIONS says what is allowed, or refuses a method
 * Next does not serve, which arrives as a marked OPTIONS.
 */
export function otherMethods(given: Partial<Record<Method, RouteHandler>>): Record<Method, Handler> {
  const implemented = given as Partial<Record<Method, Handler>>;
  const allowed = METHODS.filter((method) => implemented[method] || (method === "HEAD" && implemented.GET) || method === "OPTIONS");
  const allow = allowed.join(", ");
  const refuse = (req: Request) => methodNotAllowed(clientMethod(req), allow);
  return {
    GET: implemented.GET ?? refuse,
    HEAD: implemented.HEAD ?? implemented.GET ?? refuse,
    POST: implemented.POST ?? refuse,
    PUT: implemented.PUT ?? refuse,
    PATCH: implemented.PATCH ?? refuse,
    DELETE: implemented.DELETE ?? refuse,
    OPTIONS: (req: Request) => (refusedMethod(req) ? refuse(req) : new Response(null, { status: 204, headers: { allow } })),
  };
}
