import type { Db } from "@/db/client";
import type { SignInThrottle } from "./sign-in-throttle";
import { verifyCredentials, type User } from "./users";

export type PasswordCheck = { ok: true; user: User } | { ok: false; retryAfter: number | null };

/**
 * Every password check goes through the throttle — the sign-in page and an invitation accepted
 * with an existing account's password alike — so neither is a way around the other's limit.
 * While throttled the password is not even hashed.
 */
export async function checkPassword(
  db: Db,
  throttle: SignInThrottle,
  email: string,
  password: string,
  address: string,
): Promise<PasswordCheck> {
  const wait = await throttle.retryAfter(email, address);
  if (wait !== null) return { ok: false, retryAfter: wait };
  const user = await verifyCredentials(db, email, password);
  if (!user) {
    await throttle.failed(email, address);
    return { ok: false, retryAfter: null };
  }
  await throttle.succeeded(email, address);
  return { ok: true, user };
}

/** "Too many failed sign-ins. Try again in 15 minutes." */
export function throttledText(seconds: number): string {
  const wait = seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minute${seconds > 60 ? "s" : ""}`;
  return `Too many failed sign-ins. Try again in ${wait}.`;
}
