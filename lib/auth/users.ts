import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { singleRow } from "@/db/rows";
import { users } from "@/db/schema";
import { hashPassword, verifyPassword } from "./password";

export interface User {
  id: number;
  email: string;
  name: string | null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Makes sure a person with this email exists and, when given, has this password. */
export async function ensureUser(db: Db, email: string, password?: string, name?: string): Promise<User> {
  const normalized = normalizeEmail(email);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  const rows = await db
    .insert(users)
    .values({ email: normalized, name: name ?? null, passwordHash })
    .onConflictDoUpdate({
      target: users.email,
      set: passwordHash === null ? { email: normalized } : { passwordHash },
    })
    .returning({ id: users.id, email: users.email, name: users.name });
  return singleRow(rows);
}

/** How the account with this email signs in: none yet, with a password, or only with GitHub. */
export async function accountKind(db: Db, email: string): Promise<"none" | "password" | "github"> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (!row) return "none";
  return row.passwordHash ? "password" : "github";
}

/** The person whose email and password these are, or null; the same work either way. */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (!row?.passwordHash) {
    // Spend the hashing time anyway so a missing account is not told apart by timing.
    await hashPassword(password);
    return null;
  }
  if (!(await verifyPassword(password, row.passwordHash))) return null;
  return { id: row.id, email: row.email, name: row.name };
}

/**
 * A GitHub sign-in: the account is matched by GitHub id, then by email. The account's verified
 * addresses are kept as of this sign-in: they are what an invitation is checked against.
 */
export async function ensureGithubUser(
  db: Db,
  githubId: string,
  email: string,
  name: string | null,
  verifiedEmails: string[] = [],
): Promise<User> {
  const [byGithub] = await db.select().from(users).where(eq(users.githubId, githubId));
  if (byGithub) {
    await db.update(users).set({ githubEmails: verifiedEmails }).where(eq(users.id, byGithub.id));
    return { id: byGithub.id, email: byGithub.email, name: byGithub.name };
  }
  const rows = await db
    .insert(users)
    .values({ email: normalizeEmail(email), name, githubId, githubEmails: verifiedEmails })
    .onConflictDoUpdate({ target: users.email, set: { githubId, githubEmails: verifiedEmails } })
    .returning({ id: users.id, email: users.email, name: users.name });
  return singleRow(rows);
}

/**
 * The addresses a person is known to own: for an account that signs in with GitHub, the ones GitHub
 * verified (its profile address may not be); otherwise the address they sign in with.
 */
export async function ownedEmails(db: Db, userId: number): Promise<{ email: string; all: string[] } | null> {
  const [row] = await db
    .select({ email: users.email, githubId: users.githubId, github: users.githubEmails })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  return { email: row.email, all: row.githubId === null ? [normalizeEmail(row.email)] : row.github.map(normalizeEmail) };
}

export async function getUser(db: Db, id: number): Promise<User | null> {
  const [row] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, id));
  return row ?? null;
}
