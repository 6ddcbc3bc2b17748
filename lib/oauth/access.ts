import { ACCESS_LEVELS, roleAtLeast, type AccessLevel, type Role } from "../auth/scopes";

/**
 * What a connection may do, chosen by the member on the consent page: a level of the key ladder
 * (docs/teams-and-keys.md#api-keys-and-scopes, ACCESS_LEVELS in lib/auth/scopes.ts), never above their role. A viewer's connection reads;
 * an editor's may also write (drafts, observations, the ledger, as a `write` key); a lead's may
 * also do what an `admin` key does.
 */

/** The least role that may hold each level. */
const ROLE_FOR: Record<AccessLevel, Role> = { read: "viewer", write: "editor", admin: "lead" };

export function roleAllows(role: Role, level: AccessLevel): boolean {
  return roleAtLeast(role, ROLE_FOR[level]);
}

/** The highest level a role may hold. */
export function highestLevel(role: Role): AccessLevel {
  return [...ACCESS_LEVELS].reverse().find((level) => roleAllows(role, level)) ?? "read";
}

/** What a level lets a client do, as the consent page and the settings page say it. */
export const LEVEL_WORDS: Record<AccessLevel, string> = {
  read: "read the team's skills, the listing and the ledger",
  write: "read, and write learned skills as drafts, observations and ledger records",
  admin: "everything a lead's admin key can: also promote, roll back and change active skills",
};

export function isAccessLevel(value: string): value is AccessLevel {
  return (ACCESS_LEVELS as readonly string[]).includes(value);
}
