import { AppError } from "@/lib/errors";
import { authorizationServerMetadata, oauthAddresses, protectedResourceMetadata } from "@/lib/http/oauth";
import { otherMethods } from "@/lib/http/methods";
import { errorResponse, json } from "@/lib/http/respond";

/** Any page may read them: browser-based MCP clients discover the server from another origin. */
const CORS = { "access-control-allow-origin": "*" };

/**
 * The OAuth metadata documents (RFC 8414, RFC 9728), reached from their well-known addresses
 * (lib/http/oauth-paths.ts). They depend only on this deployment's public origin.
 */
async function GET(req: Request, { params }: { params: Promise<{ document: string }> }): Promise<Response> {
  const { document } = await params;
  const addresses = oauthAddresses(req);
  if (document === "authorization-server") return json(authorizationServerMetadata(addresses), 200, CORS);
  if (document === "protected-resource") return json(protectedResourceMetadata(addresses), 200, CORS);
  return errorResponse(new AppError("NotFound", `no OAuth metadata called ${document}`));
}

const others = otherMethods({ GET });
export { GET };
export const { POST, PUT, PATCH, DELETE, HEAD } = others;
export const OPTIONS = (req: Request) =>
  req.headers.get("access-control-request-method")
    ? new Response(null, { status: 204, headers: { ...CORS, "access-control-allow-methods": "GET", "access-control-allow-headers": "*" } })
    : others.OPTIONS(req, undefined);
