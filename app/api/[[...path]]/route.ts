import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/respond";

/** Any /api path no route matches: the error envelope (§11), not the framework's HTML 404. */
function noRoute(req: Request): Response {
  const { pathname } = new URL(req.url);
  return errorResponse(new AppError("NotFound", `no route ${req.method} ${pathname}; the routes are described at /api/v1/openapi.json`));
}

export const GET = noRoute;
export const HEAD = noRoute;
export const POST = noRoute;
export const PUT = noRoute;
export const PATCH = noRoute;
export const DELETE = noRoute;
export const OPTIONS = noRoute;
