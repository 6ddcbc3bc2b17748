import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { apiKeys, teams, users } from "./teams";

/**
 * OAuth for MCP (docs/mcp.md#oauth, issue 28). A client registers itself (RFC 7591), a member consents to it
 * acting for them in one team, and the client then holds tokens. What the member consented to is
 * a connection: an `api_keys` row with the member and the client on it, so everything a key is
 * (scopes, rate limit, MCP sessions, authorship, revocation) a connection is too.
 */

/** Clients that registered themselves; `information` is what the registration answered. */
export const oauthClients = pgTable("oauth_clients", {
  clientId: text("client_id").primaryKey(),
  information: jsonb("information").$type<OAuthClientInformationFull>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One authorization request: made by /authorize, shown on the consent page, then (consented)
 * holding its code until the client exchanges it, once.
 */
export const oauthAuthorizations = pgTable(
  "oauth_authorizations",
  {
    // Random: the consent page's address carries it.
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    state: text("state"),
    resource: text("resource"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    // Set by the member's consent.
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "cascade" }),
    scopes: text("scopes").array(),
    codeHash: text("code_hash"),
    // Set when the code is exchanged (or the request is refused): it is never used again.
    usedAt: timestamp("used_at", { withTimezone: true }),
    // The connection the code opened: what presenting the code again revokes (RFC 9700 §4.14).
    connectionId: integer("connection_id").references(() => apiKeys.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_authorizations_code_hash_key").on(t.codeHash), index("oauth_authorizations_expires_idx").on(t.expiresAt)],
);

/** Access and refresh tokens of a connection, stored hashed like keys. A refresh token is used once. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    resource: text("resource"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_tokens_connection_idx").on(t.connectionId), index("oauth_tokens_expires_idx").on(t.expiresAt)],
);
