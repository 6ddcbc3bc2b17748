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

export const WRONG_PASSWORD = "That email and password do not match an account.";
export const SIGN_IN_FAILED = "Sign-in failed. Try again.";

/** What the sign-in page says for a refused password sign-in: its Auth.js code is `throttled-<seconds>` when throttled. */
export function signInRefusal(code: string | undefined): string {
  const seconds = Number(/^throttled-(\d{1,6})$/.exec(code ?? "")?.[1]);
  return seconds ? throttledText(seconds) : WRONG_PASSWORD;
}
