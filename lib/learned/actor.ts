import { sql, type AnyColumn } from "drizzle-orm";
import { grants, requireScope, roleAtLeast, type Credential, type Role } from "../auth/scopes";
import { AppError } from "../errors";

/**
 * Who is changing a learned skill: a signed-in person, an agent with an API key or a member's
 * OAuth connection (an `api_keys` row either way), or start-up itself (the demo seed).
 */
export type Actor =
  | { kind: "person"; userId: number; email: string; role: Role }
  | { kind: "key"; keyId: number; credential: Credential; scopes: readonly string[]; sessionId: string | null }
  | { kind: "system" };

export const SYSTEM: Actor = { kind: "system" };

/** Editors and leads, and admin keys, may write active skills; agents with write keys write drafts. */
export function mayWriteActive(actor: Actor): boolean {
  if (actor.kind === "system") return true;
  return actor.kind === "person" ? roleAtLeast(actor.role, "editor") : grants(actor.scopes, "admin");
}

/** Leads and admin keys: rollback, restore and forced promotion (docs/teams-and-keys.md#roles). */
export function mayLead(actor: Actor): boolean {
  if (actor.kind === "system") return true;
  return actor.kind === "person" ? roleAtLeast(actor.role, "lead") : grants(actor.scopes, "admin");
}

export function requireWriteActive(actor: Actor, what: string): void {
  if (mayWriteActive(actor)) return;
  refuseConnection(actor);
  throw new AppError("Forbidden", `${what} needs an editor, a lead or an admin key`);
}

export function requireLead(actor: Actor, what: string): void {
  if (mayLead(actor)) return;
  refuseConnection(actor);
  throw new AppError("Forbidden", `${what} needs a lead or an admin key`);
}

/** A connection below "admin" is told how its member gets it, not to ask a lead for a key. */
function refuseConnection(actor: Actor): void {
  if (actor.kind === "key" && actor.credential === "connection") requireScope(actor, "admin");
}

/** Who did something, as rows name them: the author columns of a version, the actor columns of an event. */
export interface Author {
  userId: number | null;
  keyId: number | null;
  sessionId: string | null;
}

export function authorOf(actor: Actor): Author {
  if (actor.kind === "person") return { userId: actor.userId, keyId: null, sessionId: null };
  if (actor.kind === "key") return { userId: null, keyId: actor.keyId, sessionId: actor.sessionId };
  return { userId: null, keyId: null, sessionId: null };
}

/** Provenance of a skill this actor creates (docs/learned-skills.md#provenance): an agent's session, or the person. */
export function provenanceOf(actor: Actor): { kind: "agent" | "user"; ref: string | null } {
  if (actor.kind === "person") return { kind: "user", ref: actor.email };
  return { kind: "agent", ref: actor.kind === "key" ? actor.sessionId : null };
}

/** An author as people are told of them: a person (by email), a key (by name, with the agent session), or Skillgate itself. */
export type NamedAuthor =
  | { kind: "person"; email: string | null }
  | { kind: "key"; keyId: number; keyName: string | null; session: string | null }
  /** A member's MCP client signed in with OAuth (lib/oauth/connections.ts): "sam@example.com via Claude Code". */
  | { kind: "connection"; keyId: number; name: string | null; session: string | null }
  | { kind: "system" };

/** Whether an `api_keys` row is a connection, for the queries that name authors. */
export const isConnection = (key: { userId: AnyColumn }) => sql<boolean | null>`(${key.userId} is not null)`;

/** The author columns of a row (version, event, amendment decision) joined to the person's email and the key's name. */
export function namedAuthor(row: {
  userId: number | null;
  email: string | null;
  keyId: number | null;
  keyName: string | null;
  /** Whether the key row is a connection (it has a member): its name says the member and the client. */
  keyIsConnection?: boolean | null;
  session: string | null;
}): NamedAuthor {
  if (row.userId !== null) return { kind: "person", email: row.email };
  if (row.keyId !== null && row.keyIsConnection) return { kind: "connection", keyId: row.keyId, name: row.keyName, session: row.session };
  if (row.keyId !== null) return { kind: "key", keyId: row.keyId, keyName: row.keyName, session: row.session };
  return { kind: "system" };
}

/**
 * Who did something, in words, wherever the dashboard says it (versions, history events,
 * amendments and the decisions on them): the email, "key ci-bot · session 7f3a", "sam@example.com via
 * Claude Code · session 7f3a", or "Skillgate".
 */
export function authorName(author: NamedAuthor): string {
  if (author.kind === "person") return author.email ?? "a person who has left";
  if (author.kind === "connection")
    return `${author.name ?? `connection ${author.keyId}`}${author.session ? ` · session ${author.session}` : ""}`;
  if (author.kind === "key") return `key ${author.keyName ?? author.keyId}${author.session ? ` · session ${author.session}` : ""}`;
  return "Skillgate";
}
