import { AppError } from "../errors";

/**
 * API key scopes (docs/teams-and-keys.md#api-keys-and-scopes). `read`, `write` and `admin` form a ladder: each includes the ones before
 * it. `telemetry` stands apart: it sends agent telemetry (docs/telemetry.md) and nothing else, and `write` and
 * `admin` include it.
 */
export const SCOPES = ["read", "write", "admin", "telemetry"] as const;
export type Scope = (typeof SCOPES)[number];

/** The ladder: what a key's access or a connection's level is, from least to most. */
export const ACCESS_LEVELS = ["read", "write", "admin"] as const satisfies readonly Scope[];
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
const LADDER: readonly Scope[] = ACCESS_LEVELS;

/** The level held by a set of scopes: the highest of the ladder among them. */
export function levelOfScopes(scopes: readonly string[]): AccessLevel {
  return [...ACCESS_LEVELS].reverse().find((level) => scopes.includes(level)) ?? "read";
}

/** What a bearer is: a team's API key, or a member's OAuth connection (lib/oauth/connections.ts). */
export type Credential = "key" | "connection";

/**
 * Refuses a request its bearer's scopes do not cover, saying what would: a key is replaced by a
 * lead; a connection is signed in again by its member, at a level their role allows.
 */
export function requireScope(bearer: { credential: Credential; scopes: readonly string[] }, needed: Scope): void {
  if (grants(bearer.scopes, needed)) return;
  if (bearer.credential === "key") {
    const ask = needed === "telemetry" ? "ask a lead for a telemetry key" : "ask a lead for a key that has it";
    throw new AppError("Forbidden", `this API key lacks the "${needed}" scope; ${ask}`);
  }
  throw new AppError(
    "Forbidden",
    `this connection was allowed "${levelOfScopes(bearer.scopes)}" access, which does not include "${needed}"; sign the client in again and allow "${needed}", if your role permits it`,
  );
}

export function grants(held: readonly string[], needed: Scope): boolean {
  if (held.includes(needed)) return true;
  if (needed === "telemetry") return held.includes("write") || held.includes("admin");
  const rank = LADDER.indexOf(needed);
  return held.some((scope) => LADDER.indexOf(scope as Scope) >= rank);
}

/**
 * The scopes a key made with one choice of access holds: a level of the ladder grants itself and
 * every level below it; `telemetry` is a key of its own. Nothing for a choice that is none of these.
 */
export function scopesOfAccess(access: string): Scope[] {
  if (access === "telemetry") return ["telemetry"];
  const level = LADDER.indexOf(access as Scope);
  return level < 0 ? [] : LADDER.slice(0, level + 1);
}

/** Roles of people in a team (docs/teams-and-keys.md#roles), in the same order of power. */
export const ROLES = ["viewer", "editor", "lead"] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}
