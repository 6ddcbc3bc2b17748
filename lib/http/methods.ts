import { AppError } from "../errors";
import { errorResponse } from "./respond";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];
// Route handlers take a context whose params differ per route.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (req: Request, context: any) => Promise<Response> | Response;
/** Any route handler: Next's own take a NextRequest. */
type RouteHandler = (req: never, context: never) => Promise<Response> | Response;

/**
 * The answers of a route for the methods it does not implement. Next's own are an empty 405
 * without `Allow`; every `/api` answer is the error envelope (§11), so each route file exports
 * these beside its handlers: `export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST })`.
 * HEAD is GET without a body (Next drops it), OPTIONS says what is allowed.
 */
export function otherMethods(given: Partial<Record<Method, RouteHandler>>): Record<Method, Handler> {
  const implemented = given as Partial<Record<Method, Handler>>;
  const allowed = METHODS.filter((method) => implemented[method] || (method === "HEAD" && implemented.GET) || method === "OPTIONS");
  const allow = allowed.join(", ");
  const refuse = (req: Request) =>
    errorResponse(new AppError("MethodNotAllowed", `${req.method} is not allowed here; this route answers ${allow}`), { allow });
  return {
    GET: implemented.GET ?? refuse,
    HEAD: implemented.HEAD ?? implemented.GET ?? refuse,
    POST: implemented.POST ?? refuse,
    PUT: implemented.PUT ?? refuse,
    PATCH: implemented.PATCH ?? refuse,
    DELETE: implemented.DELETE ?? refuse,
    OPTIONS: () => new Response(null, { status: 204, headers: { allow } }),
  };
}
