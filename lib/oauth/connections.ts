import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { apiKeys, oauthTokens, users } from "@/db/schema";
import { sha256Hex } from "../hash";
import { AppError } from "../errors";
import { AUTH_TEAM_COLUMNS, authTeam, type AuthTeamRow, type KeyAuth } from "../auth/api-keys";
import { ACCESS_LEVELS, levelOfScopes, type AccessLevel, type Role } from "../auth/scopes";
import type { TeamId } from "../teams/teams";
import { roleAllows } from "./access";

/**
 * A connection is what a member consented to: a client acting for them in one team at one access
 * level. It is an `api_keys` row with the member and the client on it (db/schema/oauth.ts), so
 * scopes, rate limits, MCP sessions, authorship and revocation work as for keys. Its tokens are
 * random, kept hashed, and checked against the database on every request: revoking a connection,
 * or removing its member, is seen by every instance on the next request.
 */

export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/**
 * A refresh token presented again within this long of its use is a client's retry or a race, and is
 * only refused; later, it is a copy in someone else's hands, and the whole connection is revoked
 * (OAuth 2.1 §4.3.1: refresh token rotation with reuse detection).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

const ACCESS_PREFIX = "sgo_at_";
const REFRESH_PREFIX = "sgo_rt_";

/** Whether a bearer is one of our OAuth tokens (API keys start with `sg_`): only an access token authenticates. */
export function looksLikeOAuthToken(bearer: string): boolean {
  return bearer.startsWith("sgo_");
}

export type ConnectionId = number & { readonly __brand: "ConnectionId" };

export interface IssuedTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function issueTokens(
  tx: Db,
  connectionId: number,
  scopes: readonly string[],
  resource: string | null,
  now: Date,
): Promise<IssuedTokens> {
  const access = ACCESS_PREFIX + randomBytes(32).toString("base64url");
  const refresh = REFRESH_PREFIX + randomBytes(32).toString("base64url");
  await tx.insert(oauthTokens).values([
    { tokenHash: sha256Hex(access), kind: "access", connectionId, resource, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS) },
    { tokenHash: sha256Hex(refresh), kind: "refresh", connectionId, resource, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
  ]);
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refresh,
    scope: scopes.join(" "),
  };
}

export interface NewConnection {
  teamId: number;
  userId: number;
  clientId: string;
  clientName: string;
  scopes: string[];
  resource: string | null;
}

/** Opens a connection for a spent code and hands out its first tokens, in the exchange's transaction. */
export async function openConnection(
  tx: Db,
  input: NewConnection,
  now = new Date(),
): Promise<{ connectionId: ConnectionId; tokens: IssuedTokens }> {
  const [member] = await tx.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  const rows = await tx
    .insert(apiKeys)
    .values({
      teamId: input.teamId,
      // How history, versions and amendments name what it does (lib/learned/actor.ts).
      name: `${member?.email ?? `member ${input.userId}`} via ${input.clientName}`,
      prefix: "oauth",
      keyHash: null,
      scopes: input.scopes,
      createdBy: input.userId,
      userId: input.userId,
      clientId: input.clientId,
      clientName: input.clientName,
    })
    .returning({ id: apiKeys.id });
  const connectionId = singleRow(rows).id as ConnectionId;
  return { connectionId, tokens: await issueTokens(tx, connectionId, input.scopes, input.resource, now) };
}

/**
 * Trades a refresh token for new tokens; the old one is spent. Of many requests presenting it at
 * once, one gets the new tokens. A spent token presented after the grace is taken as stolen.
 */
export async function refreshConnection(db: Db, clientId: string, refreshToken: string, now = new Date()): Promise<IssuedTokens | null> {
  const hash = sha256Hex(refreshToken);
  return db.transaction(async (tx) => {
    // Only the client it was issued to may spend it: another client presenting it changes nothing.
    const [connection] = await tx
      .select({ id: apiKeys.id, scopes: apiKeys.scopes })
      .from(oauthTokens)
      .innerJoin(apiKeys, eq(apiKeys.id, oauthTokens.connectionId))
      .where(
        and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.kind, "refresh"), eq(apiKeys.clientId, clientId), isNull(apiKeys.revokedAt)),
      );
    if (!connection) return null;
    const [spent] = await tx
      .update(oauthTokens)
      .set({ usedAt: now })
      .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.usedAt), gt(oauthTokens.expiresAt, now)))
      .returning({ resource: oauthTokens.resource });
    if (!spent) {
      await revokeOnReuse(tx, hash, now);
      return null;
    }
    // Tokens past their time are of no use, not even to tell reuse: they go as new ones come.
    await tx.delete(oauthTokens).where(and(eq(oauthTokens.connectionId, connection.id), lt(oauthTokens.expiresAt, now)));
    return issueTokens(tx, connection.id, connection.scopes, spent.resource, now);
  });
}

async function revokeOnReuse(tx: Db, hash: string, now: Date): Promise<void> {
  const [reused] = await tx
    .select({ connectionId: oauthTokens.connectionId })
    .from(oauthTokens)
    .where(
      and(
        eq(oauthTokens.tokenHash, hash),
        isNotNull(oauthTokens.usedAt),
        lt(oauthTokens.usedAt, new Date(now.getTime() - REFRESH_REUSE_GRACE_MS)),
      ),
    );
  if (reused) await revokeGrant(tx, reused.connectionId, "a refresh token", now);
}

/**
 * Ends the connection a spent code or refresh token led to, when it is presented again: a copy
 * in other hands (RFC 9700 §2.2.2, §4.14). Said in the log once, by whichever replay ended it.
 */
export async function revokeGrant(tx: Db, id: number, presented: "an authorization code" | "a refresh token", now: Date): Promise<void> {
  const ended = await endConnection(tx, id, now);
  if (ended) {
    console.warn(
      `skillgate: oauth: ${presented} was presented again after it was spent; its connection ${id} ("${ended.name}") is revoked`,
    );
  }
}

/** Ends one connection, once: its tokens stop working on the next request. What it ended, or null when it had ended already. */
async function endConnection(db: Db, id: number, now: Date): Promise<{ name: string } | null> {
  const [ended] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ name: apiKeys.name });
  return ended ?? null;
}

/** The client signs out (RFC 7009): a refresh token ends its connection; an access token ends itself. */
export async function revokeToken(db: Db, clientId: string, token: string, now = new Date()): Promise<void> {
  const [row] = await db
    .select({ kind: oauthTokens.kind, connectionId: oauthTokens.connectionId })
    .from(oauthTokens)
    .innerJoin(apiKeys, eq(apiKeys.id, oauthTokens.connectionId))
    .where(and(eq(oauthTokens.tokenHash, sha256Hex(token)), eq(apiKeys.clientId, clientId)));
  // RFC 7009 §2.2: an unknown token is answered as revoked.
  if (!row) return;
  if (row.kind === "refresh") {
    await endConnection(db, row.connectionId, now);
    return;
  }
  await db
    .update(oauthTokens)
    .set({ expiresAt: now })
    .where(eq(oauthTokens.tokenHash, sha256Hex(token)));
}

const AUTHENTICATE = `
  select k.id as key_id, k.scopes, m.role, ${AUTH_TEAM_COLUMNS}
  from oauth_tokens o
  join api_keys k on k.id = o.connection_id
  join teams t on t.id = k.team_id
  left join memberships m on m.team_id = k.team_id and m.user_id = k.user_id
  where o.token_hash = $1 and o.kind = 'access' and o.expires_at > $2 and k.revoked_at is null
  limit 1`;

interface AuthRow extends AuthTeamRow {
  key_id: number;
  scopes: string[];
  role: Role | null;
}

/**
 * What an access token acts as: its connection's team and scopes, while its member is still in
 * the team with a role that allows them. A member removed, or dropped below the connection's
 * level, ends the connection here too, whatever path made the change.
 */
export async function authenticateAccessToken(database: Database, db: Db, token: string, now = new Date()): Promise<KeyAuth | null> {
  const [row] = await database.query<AuthRow>(AUTHENTICATE, [sha256Hex(token), now.toISOString()]);
  if (!row) return null;
  if (row.role === null || !roleAllows(row.role, levelOfScopes(row.scopes))) {
    await endConnection(db, row.key_id, now);
    return null;
  }
  return Object.freeze({
    keyId: row.key_id,
    credential: "connection" as const,
    scopes: Object.freeze(row.scopes),
    member: null,
    team: Object.freeze(authTeam(row)),
  });
}

/**
 * Ends a member's connections in a team that their role no longer allows: all of them when they
 * are removed (`role` null), those above their new role when it drops. Called in the transaction
 * that changes the membership.
 */
export async function revokeConnectionsBeyond(
  tx: Db,
  teamId: TeamId,
  userId: number,
  role: Role | null,
  now = new Date(),
): Promise<number> {
  const beyond = ACCESS_LEVELS.filter((level) => role === null || !roleAllows(role, level));
  if (beyond.length === 0) return 0;
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiKeys.teamId, teamId),
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
        or(...beyond.map((level) => sql`${level} = any(${apiKeys.scopes})`)),
      ),
    )
    .returning({ id: apiKeys.id });
  return revoked.length;
}

/** A connection as the settings page lists it. */
export interface Connection {
  id: ConnectionId;
  clientName: string;
  email: string;
  level: AccessLevel;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A team's connections: a lead sees every member's, anyone else only their own. */
export async function listConnections(db: Db, teamId: TeamId, viewer: { userId: number; role: Role }): Promise<Connection[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      clientName: apiKeys.clientName,
      email: users.email,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    // A member's own key has a member too, and a key: it is listed with the keys, not here.
    .where(and(eq(apiKeys.teamId, teamId), isNull(apiKeys.keyHash), viewer.role === "lead" ? undefined : eq(apiKeys.userId, viewer.userId)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({
    id: row.id as ConnectionId,
    clientName: row.clientName ?? "an unnamed client",
    email: row.email,
    level: levelOfScopes(row.scopes),
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  }));
}

/** Revokes a connection: a lead any of the team's, anyone else their own. */
export async function revokeConnection(
  db: Db,
  teamId: TeamId,
  id: number,
  viewer: { userId: number; role: Role },
  now = new Date(),
): Promise<void> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiKeys.teamId, teamId),
        eq(apiKeys.id, id),
        isNotNull(apiKeys.userId),
        isNull(apiKeys.keyHash),
        isNull(apiKeys.revokedAt),
        viewer.role === "lead" ? undefined : eq(apiKeys.userId, viewer.userId),
      ),
    )
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new AppError("NotFound", `no active connection ${id} of yours in this team`);
}
