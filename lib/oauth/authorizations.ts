import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, oauthAuthorizations, oauthClients, teams } from "@/db/schema";
import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { sha256Hex } from "../hash";
import { AppError } from "../errors";
import { scopesOfAccess, type AccessLevel, type Role } from "../auth/scopes";
import { roleAllows } from "./access";

/** How long a member has to consent, and then the client to exchange the code. */
export const AUTHORIZATION_TTL_MS = 10 * 60_000;

export type AuthorizationId = string & { readonly __brand: "AuthorizationId" };

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  resource: string | undefined;
}

/** Keeps what /authorize was asked, for the consent page its id leads to. Old requests go as new ones come. */
export async function createAuthorization(db: Db, request: AuthorizationRequest, now = new Date()): Promise<AuthorizationId> {
  const id = randomBytes(18).toString("base64url") as AuthorizationId;
  await db.delete(oauthAuthorizations).where(lt(oauthAuthorizations.expiresAt, now));
  await db.insert(oauthAuthorizations).values({
    id,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    state: request.state ?? null,
    resource: request.resource ?? null,
    expiresAt: new Date(now.getTime() + AUTHORIZATION_TTL_MS),
  });
  return id;
}

/** What the consent page shows: the request and its client, while it awaits consent. */
export interface PendingAuthorization extends AuthorizationRequest {
  id: AuthorizationId;
  client: OAuthClientInformationFull;
}

const pendingWhere = (id: string, now: Date) =>
  and(
    eq(oauthAuthorizations.id, id),
    isNull(oauthAuthorizations.codeHash),
    isNull(oauthAuthorizations.usedAt),
    gt(oauthAuthorizations.expiresAt, now),
  );

export async function findPendingAuthorization(db: Db, id: string, now = new Date()): Promise<PendingAuthorization | null> {
  const [row] = await db
    .select({ request: oauthAuthorizations, client: oauthClients.information })
    .from(oauthAuthorizations)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthAuthorizations.clientId))
    .where(pendingWhere(id, now));
  if (!row) return null;
  return {
    id: row.request.id as AuthorizationId,
    clientId: row.request.clientId,
    redirectUri: row.request.redirectUri,
    codeChallenge: row.request.codeChallenge,
    state: row.request.state ?? undefined,
    resource: row.request.resource ?? undefined,
    client: row.client,
  };
}

const gone = () => new AppError("NotFound", "this sign-in request has expired or was already answered: start again from your MCP client");

/** Where the member's answer sends the browser: back to the client, with a code or a refusal. */
export type ConsentAnswer = { redirectTo: string };

/**
 * The member consents for one of their teams at a level their role allows: the request gets its
 * code (kept hashed), and the browser goes back to the client with it. Answered once: a second
 * answer (another tab, a double click) finds nothing pending.
 */
export async function consent(
  db: Db,
  id: string,
  member: { userId: number },
  choice: { teamSlug: string; level: AccessLevel },
  now = new Date(),
): Promise<ConsentAnswer> {
  const code = randomBytes(32).toString("base64url");
  return db.transaction(async (tx) => {
    const [membership] = await tx
      .select({ teamId: teams.id, role: memberships.role })
      .from(memberships)
      .innerJoin(teams, eq(teams.id, memberships.teamId))
      .where(and(eq(memberships.userId, member.userId), eq(teams.slug, choice.teamSlug)));
    if (!membership) throw new AppError("Forbidden", `you are in no team called “${choice.teamSlug}”: choose one of your teams`);
    if (!roleAllows(membership.role as Role, choice.level)) {
      throw new AppError("Forbidden", `a ${membership.role} cannot give a client ${choice.level} access: choose a lower level`);
    }
    const answered = await answer(tx, id, now, {
      userId: member.userId,
      teamId: membership.teamId,
      scopes: scopesOfAccess(choice.level),
      codeHash: sha256Hex(code),
    });
    return { redirectTo: backToClient(answered.redirectUri, { code, state: answered.state }) };
  });
}

/** The member refuses: the client hears `access_denied` (RFC 6749 §4.1.2.1), and the request is spent. */
export async function refuse(db: Db, id: string, now = new Date()): Promise<ConsentAnswer> {
  const answered = await answer(db, id, now, { usedAt: now });
  return {
    redirectTo: backToClient(answered.redirectUri, {
      error: "access_denied",
      error_description: "the member refused",
      state: answered.state,
    }),
  };
}

/** Answers a pending request once: a second answer (another tab, a double click) finds nothing pending. */
async function answer(db: Db, id: string, now: Date, set: Partial<typeof oauthAuthorizations.$inferInsert>) {
  const [answered] = await db
    .update(oauthAuthorizations)
    .set(set)
    .where(pendingWhere(id, now))
    .returning({ redirectUri: oauthAuthorizations.redirectUri, state: oauthAuthorizations.state });
  if (!answered) throw gone();
  return answered;
}

function backToClient(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}
