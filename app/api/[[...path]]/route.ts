import { AppError } from "@/lib/errors";
import { clientMethod } from "@/lib/http/methods";
import { errorResponse } from "@/lib/http/respond";

/**
 * Any /api path no route matches: the error envelope (docs/api.md#errors), not the framework's HTML 404, whatever
 * the method (one Next does not serve arrives as a marked OPTIONS).
 */
function noRoute(req: Request): Response {
  const { pathname } = new URL(req.url);
  return errorResponse(
    new AppError("NotFound", `no route ${clientMethod(req)} ${pathname}; the routes are described at /api/v1/openapi.json`),
  );
}

export const GET = noRoute;
export const HEAD = noRoute;
export const POST = noRoute;
export const PUT = noRoute;
export const PATCH = noRoute;
export const DELETE = noRoute;
export const OPTIONS = noRoute;
