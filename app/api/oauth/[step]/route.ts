import { AppError } from "@/lib/errors";
import { isOAuthStep, serveOAuthStep } from "@/lib/http/oauth";
import { errorResponse } from "@/lib/http/respond";

/**
 * /api/oauth/{authorize,token,register,revoke} — OAuth for MCP (docs/mcp.md#oauth), answered by the MCP SDK's
 * handlers (lib/http/oauth.ts), which also answer CORS preflights and refuse methods they do not take.
 */
async function serve(req: Request, { params }: { params: Promise<{ step: string }> }): Promise<Response> {
  const { step } = await params;
  if (!isOAuthStep(step)) {
    return errorResponse(new AppError("NotFound", `no OAuth endpoint ${step}; they are authorize, token, register and revoke`));
  }
  return serveOAuthStep(req, step);
}

export const GET = serve;
export const POST = serve;
export const PUT = serve;
export const PATCH = serve;
export const DELETE = serve;
export const OPTIONS = serve;
