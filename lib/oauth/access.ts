import { roleAtLeast, type Role, type Scope } from "../auth/scopes";

/**
 * What a connection may do, chosen by the member on the consent page: a level of the key ladder
 * (§1), never above their role. A viewer's connection reads; an editor's may also write (drafts,
 * observations, the ledger, as a `write` key); a lead's may also do what an `admin` key does.
 */
export const ACCESS_LEVELS = ["read", "write", "admin"] as const satisfies readonly Scope[];
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The least role that may hold each level. */
const ROLE_FOR: Record<AccessLevel, Role> = { read: "viewer", write: "editor", admin: "lead" };

export function roleAllows(role: Role, level: AccessLevel): boolean {
  return roleAtLeast(role, ROLE_FOR[level]);
}

/** The highest level a role may hold. */
export function highestLevel(role: Role): AccessLevel {
  return [...ACCESS_LEVELS].reverse().find((level) => roleAllows(role, level)) ?? "read";
}

/** The scopes a level holds: itself and every level below it. */
export function scopesOfLevel(level: AccessLevel): Scope[] {
  return ACCESS_LEVELS.slice(0, ACCESS_LEVELS.indexOf(level) + 1);
}

/** The level held by a set of scopes: the highest of the ladder among them. */
export function levelOfScopes(scopes: readonly string[]): AccessLevel {
  return [...ACCESS_LEVELS].reverse().find((level) => scopes.includes(level)) ?? "read";
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
