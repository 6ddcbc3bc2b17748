import { env } from "../env";
import { linkOrigin, type LinkOrigin } from "../public-url";

/**
 * The origin links handed out start with (install links, invitations), from this deployment's
 * configuration (lib/public-url.ts says which headers count and when). `requestUrl` is a route
 * handler's `req.url`; a server action has none.
 */
export function publicOrigin(headers: Headers, requestUrl?: string): LinkOrigin {
  return linkOrigin(env(), headers, requestUrl);
}
