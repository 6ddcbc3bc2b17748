/** API key scopes (§1). Each includes the ones before it: an admin key can write, a write key can read. */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

export function grants(held: readonly string[], needed: Scope): boolean {
  const rank = SCOPES.indexOf(needed);
  return held.some((scope) => SCOPES.indexOf(scope as Scope) >= rank);
}

/** Roles of people in a team (§1), in the same order of power. */
export const ROLES = ["viewer", "editor", "lead"] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}
