/**
 * Where OAuth for MCP lives (docs/mcp.md#oauth, issue 28). Clients look for the metadata at fixed addresses
 * (RFC 8414, RFC 9728); the proxy sends those to API routes, as it does the installers' paths, so
 * they answer as the API does (JSON errors, no page headers). Kept apart from lib/http/oauth.ts so
 * the proxy and the MCP endpoint do not load the OAuth server.
 */
import { publicOrigin } from "./origin";

export const OAUTH_BASE = "/api/oauth";
export const MCP_PATH = "/api/mcp";
/** The consent page (app/oauth/consent): the authorization endpoint sends the member's browser there. */
export const CONSENT_PAGE = "/oauth/consent";
export const PROTECTED_RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

const WELL_KNOWN: Record<string, string> = {
  "/.well-known/oauth-authorization-server": `${OAUTH_BASE}/metadata/authorization-server`,
  // Clients that read OpenID Connect discovery find the same document.
  "/.well-known/openid-configuration": `${OAUTH_BASE}/metadata/authorization-server`,
  [PROTECTED_RESOURCE_METADATA_PATH]: `${OAUTH_BASE}/metadata/protected-resource`,
  // Clients that look at the root first (earlier drafts of the MCP authorization spec).
  "/.well-known/oauth-protected-resource": `${OAUTH_BASE}/metadata/protected-resource`,
};

/** The API route that answers an OAuth metadata address; null for any other path. */
export function oauthMetadataRoute(pathname: string): string | null {
  return WELL_KNOWN[pathname] ?? null;
}

/** The addresses of this deployment's OAuth endpoints, from its public origin. */
export interface OAuthAddresses {
  issuer: string;
  resource: string;
  resourceMetadata: string;
}

export function oauthAddresses(req: Request): OAuthAddresses {
  const { origin } = publicOrigin(req.headers, req.url);
  return { issuer: origin, resource: `${origin}${MCP_PATH}`, resourceMetadata: `${origin}${PROTECTED_RESOURCE_METADATA_PATH}` };
}
