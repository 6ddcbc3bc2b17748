import { createHash } from "node:crypto";
import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthAuthorizations } from "@/db/schema";
import { sha256Hex } from "../hash";
import { openConnection, revokeGrant, type IssuedTokens } from "./connections";

/** What the token endpoint was sent to trade a code for tokens. */
export interface CodeExchange {
  clientId: string;
  clientName: string;
  code: string;
  verifier: string;
  redirectUri: string | undefined;
}

/** Each refusal is `invalid_grant` with this text. */
export type ExchangeOutcome = { tokens: IssuedTokens } | { refused: string };

export const CODE_NOT_VALID = "the authorization code is not valid, has expired or was already used";

/**
 * Trades a code for its connection's first tokens, in one transaction. The code is spent before
 * anything is checked, so a wrong PKCE verifier or redirect URI uses it up: whoever guesses gets
 * one try. A code presented again after it was spent is a copy in other hands (RFC 9700 §4.14):
 * it is refused, and the connection it opened is revoked. Of many exchanges at once, one spends
 * the code; the others wait for its transaction to end, and then find the connection to revoke.
 * `bindResource` gives the resource the tokens are for, from the one the request kept.
 */
export async function exchangeCode(
  db: Db,
  exchange: CodeExchange,
  bindResource: (kept: string | null) => string | null,
  now = new Date(),
): Promise<ExchangeOutcome> {
  return db.transaction(async (tx): Promise<ExchangeOutcome> => {
    const spent = await spendCode(tx, exchange, now);
    if (!spent) {
      await revokeWhatItOpened(tx, exchange, now);
      return { refused: CODE_NOT_VALID };
    }
    if (!pkceMatches(exchange.verifier, spent.codeChallenge)) return { refused: "code_verifier does not match the challenge" };
    if (exchange.redirectUri !== undefined && exchange.redirectUri !== spent.redirectUri) {
      return { refused: "redirect_uri is not the one the code was issued to" };
    }
    const { userId, teamId, scopes } = spent;
    if (userId === null || teamId === null || scopes === null) return { refused: CODE_NOT_VALID };
    const opened = await openConnection(
      tx,
      { teamId, userId, scopes, clientId: exchange.clientId, clientName: exchange.clientName, resource: bindResource(spent.resource) },
      now,
    );
    await tx.update(oauthAuthorizations).set({ connectionId: opened.connectionId }).where(eq(oauthAuthorizations.id, spent.id));
    return { tokens: opened.tokens };
  });
}

const byCode = (exchange: CodeExchange) =>
  and(eq(oauthAuthorizations.codeHash, sha256Hex(exchange.code)), eq(oauthAuthorizations.clientId, exchange.clientId));

/** Spends a consented, unexpired, unused code of this client: of all the requests that present it at once, one gets it. */
async function spendCode(tx: Db, exchange: CodeExchange, now: Date) {
  const [row] = await tx
    .update(oauthAuthorizations)
    .set({ usedAt: now })
    .where(and(byCode(exchange), isNull(oauthAuthorizations.usedAt), gt(oauthAuthorizations.expiresAt, now)))
    .returning();
  return row ?? null;
}

/**
 * A code of this client that was spent: what it opened ends. Another client presenting it changes
 * nothing, as for refresh tokens. A code is known while its request is kept (lib/oauth/authorizations.ts
 * deletes requests past their 10 minutes): later, it is only refused.
 */
async function revokeWhatItOpened(tx: Db, exchange: CodeExchange, now: Date): Promise<void> {
  const [spent] = await tx
    .select({ connectionId: oauthAuthorizations.connectionId })
    .from(oauthAuthorizations)
    .where(and(byCode(exchange), isNotNull(oauthAuthorizations.usedAt)));
  if (spent?.connectionId) await revokeGrant(tx, spent.connectionId, "an authorization code", now);
}

/** RFC 7636 §4.6: S256, the only method the authorization endpoint takes. */
function pkceMatches(verifier: string, challenge: string): boolean {
  return createHash("sha256").update(verifier).digest("base64url") === challenge;
}
