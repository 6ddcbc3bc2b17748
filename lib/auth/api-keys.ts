import { randomBytes } from "node:crypto";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { apiKeys } from "@/db/schema";
import { AppError } from "../errors";
import { sha256Hex } from "../hash";
import type { Credential, Scope } from "./scopes";
import type { Team, TeamId, TeamSlug } from "../teams/teams";

/**
 * API keys are random 192-bit tokens, so a plain SHA-256 is enough to store them:
 * unlike passwords they cannot be guessed from a dictionary.
 */
export function generateApiKey(): string {
  return `sg_${randomBytes(24).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The member a member key is bound to (lib/auth/member-keys.ts): what the key sends is theirs. */
export interface BoundMember {
  userId: number;
  email: string;
}

export interface KeyAuth {
  keyId: number;
  credential: Credential;
  scopes: readonly string[];
  /** A member key's member; null for a team's key, and for a connection, which never sends telemetry. */
  member: BoundMember | null;
  /** What an agent's request needs of its team, read with the key in one query (AUTH_TEAM_COLUMNS). */
  team: Pick<Team, "id" | "slug" | "listingCap" | "descMax" | "loadHint" | "autoPromote" | "catalogRevision" | "draftsRevision">;
}

/** The team columns an authenticated request needs, read with its key (or install link) in one query. */
export const AUTH_TEAM_COLUMNS =
  "t.id as team_id, t.slug, t.listing_cap, t.desc_max, t.load_hint, t.auto_promote, t.catalog_revision, t.drafts_revision";

export interface AuthTeamRow {
  team_id: number;
  slug: string;
  listing_cap: number;
  desc_max: number;
  load_hint: string;
  auto_promote: boolean;
  catalog_revision: number;
  drafts_revision: number;
}

export function authTeam(row: AuthTeamRow): KeyAuth["team"] {
  return {
    id: row.team_id as TeamId,
    slug: row.slug as TeamSlug,
    listingCap: row.listing_cap,
    descMax: row.desc_max,
    loadHint: row.load_hint,
    autoPromote: row.auto_promote,
    catalogRevision: row.catalog_revision,
    draftsRevision: row.drafts_revision,
  };
}

// A member key works only while its member is in the team, whatever path removed them.
const AUTHENTICATE = `
  select k.id as key_id, k.scopes, k.user_id, u.email as member_email, ${AUTH_TEAM_COLUMNS}
  from api_keys k join teams t on t.id = k.team_id
  left join memberships m on m.team_id = k.team_id and m.user_id = k.user_id
  left join users u on u.id = m.user_id
  where k.key_hash = $1 and k.revoked_at is null and (k.user_id is null or m.user_id is not null)
  limit 1`;

interface AuthRow extends AuthTeamRow {
  key_id: number;
  scopes: string[];
  user_id: number | null;
  member_email: string | null;
}

/**
 * The key's team, settings and catalog revisions in one query, by the key's hash; frozen, as the
 * App's cache hands the same one to every request (lib/auth/key-cache.ts).
 */
export async function readKeyAuth(database: Pick<Database, "query">, keyHash: string): Promise<KeyAuth | null> {
  const [row] = await database.query<AuthRow>(AUTHENTICATE, [keyHash]);
  if (!row) return null;
  const member = row.user_id !== null && row.member_email !== null ? Object.freeze({ userId: row.user_id, email: row.member_email }) : null;
  const auth = {
    keyId: row.key_id,
    credential: "key" as const,
    scopes: Object.freeze(row.scopes),
    member,
    team: Object.freeze(authTeam(row)),
  };
  return Object.freeze(auth);
}

export interface NewApiKey {
  teamId: TeamId;
  name: string;
  scopes: Scope[];
  createdBy?: number | null;
}

/** Creates a key and returns it in full: the only time it is ever shown. */
export async function createApiKey(db: Db, input: NewApiKey): Promise<{ id: number; key: string }> {
  const key = generateApiKey();
  const id = await insertKey(db, input, key);
  return { id, key };
}

/** Makes sure this exact key is one of the team's keys with these scopes (headless start-up). */
export async function ensureApiKey(db: Db, input: NewApiKey, key: string): Promise<void> {
  const hash = hashApiKey(key);
  const [existing] = await db.select({ teamId: apiKeys.teamId }).from(apiKeys).where(eq(apiKeys.keyHash, hash));
  if (existing && existing.teamId !== input.teamId) {
    throw new Error("SKILLGATE_INIT_API_KEY: the same key is given for two teams; give each team its own key");
  }
  if (existing) {
    await db.update(apiKeys).set({ scopes: input.scopes, revokedAt: null }).where(eq(apiKeys.keyHash, hash));
    return;
  }
  await insertKey(db, input, key);
}

/** Renames every key called `from`, in every team. */
export async function renameKeys(db: Db, from: string, to: string): Promise<void> {
  await db.update(apiKeys).set({ name: to }).where(eq(apiKeys.name, from));
}

async function insertKey(db: Db, input: NewApiKey, key: string): Promise<number> {
  const name = input.name.trim();
  if (name === "" || name.length > 80) throw new AppError("InvalidField", "key name must be 1–80 characters");
  const rows = await db
    .insert(apiKeys)
    .values({
      teamId: input.teamId,
      name,
      prefix: key.slice(0, 10),
      keyHash: hashApiKey(key),
      scopes: input.scopes,
      createdBy: input.createdBy ?? null,
    })
    .returning({ id: apiKeys.id });
  return singleRow(rows).id;
}

export async function revokeApiKey(db: Db, teamId: TeamId, keyId: number): Promise<void> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.teamId, teamId), eq(apiKeys.id, keyId), isNotNull(apiKeys.keyHash), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new AppError("NotFound", `no active API key ${keyId} in this team`);
}

export async function listApiKeys(db: Db, teamId: TeamId) {
  return (
    db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        scopes: apiKeys.scopes,
        createdAt: apiKeys.createdAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      // Connections (OAuth) are rows of this table too, with no key; they are listed apart (lib/oauth/connections.ts).
      // Members' own keys are listed here, so a lead sees and can revoke them.
      .where(and(eq(apiKeys.teamId, teamId), isNotNull(apiKeys.keyHash)))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
  );
}
