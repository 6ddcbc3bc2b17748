import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { CustomOAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { Db } from "@/db/client";
import { isLoopbackHost } from "../public-url";
import { apiKeys, oauthClients } from "@/db/schema";

/**
 * Clients that registered themselves (RFC 7591). The SDK's registration handler validates the
 * metadata and makes the client id and secret; this only keeps what it made. The secret is kept
 * as given: the SDK's client authentication compares it as such. It only names a client that
 * registered itself; PKCE binds every code to the client that asked for it.
 */
export async function findClient(db: Db, clientId: string): Promise<OAuthClientInformationFull | undefined> {
  const [row] = await db.select({ information: oauthClients.information }).from(oauthClients).where(eq(oauthClients.clientId, clientId));
  return row?.information;
}

/** The SDK's handler gives the client its id before it calls this (its `clientIdGeneration` is on). */
export async function registerClient(
  db: Db,
  client: Omit<OAuthClientInformationFull, "client_id"> & { client_id?: string },
): Promise<OAuthClientInformationFull> {
  const { client_id: clientId } = client;
  if (!clientId) throw new Error("a client registered without an id");
  const unsafe = client.redirect_uris.find((uri) => !safeRedirect(uri));
  if (unsafe !== undefined) {
    // RFC 7591 §3.2.2 has its own code for this; the SDK names only invalid_client_metadata.
    throw new CustomOAuthError(
      "invalid_redirect_uri",
      `redirect URI ${unsafe} is neither https, nor http on this machine (localhost), nor an app's own scheme`,
    );
  }
  const registered = { ...client, client_id: clientId };
  await db.insert(oauthClients).values({ clientId, information: registered });
  return registered;
}

/**
 * Registrations an address may make in an hour (the SDK's own default), counted by every instance
 * together (lib/http/oauth.ts): anyone may register, and a client registers once, then keeps it.
 */
export const REGISTRATIONS_PER_HOUR = 20;

/** How long a client that registered has to connect before it is forgotten. */
export const UNUSED_CLIENT_HOURS = 24;

/**
 * Forgets clients that registered and never connected within a day, with their unanswered sign-in
 * requests (issue 38): anyone may register, and a registration nobody signs in with is only a
 * row. A client that connected once stays while its connection's row does, revoked or not, so
 * that it may refresh or sign in again with the registration it keeps. The background tick calls it.
 */
export async function deleteUnusedClients(db: Db): Promise<number> {
  const deleted = await db
    .delete(oauthClients)
    .where(
      and(
        lt(oauthClients.createdAt, sql`now() - ${UNUSED_CLIENT_HOURS}::int * interval '1 hour'`),
        notExists(db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.clientId, oauthClients.clientId))),
      ),
    )
    .returning({ clientId: oauthClients.clientId });
  return deleted.length;
}

/** How a client is named to people: the name it registered with, else where it sends people back to. */
export function clientName(client: Pick<OAuthClientInformationFull, "client_name" | "redirect_uris">): string {
  const name = client.client_name?.trim();
  if (name) return name.slice(0, 80);
  const first = client.redirect_uris[0];
  if (!first) return "an unnamed client";
  return `a client at ${(URL.canParse(first) && new URL(first).host) || first}`;
}

/**
 * Where a client may have the member's browser sent (RFC 8252, OAuth 2.1): https, plain http only
 * to the member's own machine (a CLI's loopback callback), or an app's own scheme (cursor://).
 */
function safeRedirect(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return isLoopbackHost(url.host);
  return !["javascript:", "data:", "file:", "vbscript:"].includes(url.protocol);
}
