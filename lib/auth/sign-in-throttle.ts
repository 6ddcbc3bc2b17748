import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signInFailures, signInKnownAddresses } from "@/db/schema";
import { normalizeEmail } from "./users";

/**
 * Failed sign-ins are throttled (ASVS V2.2.1) three ways, each counting failures only:
 *
 * - one account from one address: 5 failures in 15 minutes, then wait out the window — what a
 *   person mistyping never reaches, and what stops guessing one password;
 * - one address, any accounts: 30 failures an hour (stops spraying one password over many accounts);
 * - one account, any addresses: 50 failures an hour (stops a guesser spread over many addresses).
 *   This one does not apply to an address the account signed in from in the last 30 days, so a
 *   crowd of addresses cannot lock the owner out of their own account.
 *
 * The counts are rows, shared by every instance (issue 14): a guesser gets one allowance however
 * many instances answer. Checked before the password is hashed, so a refused attempt costs no
 * hashing. A success clears the account's count for that address.
 */

const MINUTE = 60;

interface Limit {
  failures: number;
  seconds: number;
}

const POLICY: Record<"accountAndAddress" | "address" | "account", Limit> = {
  accountAndAddress: { failures: 5, seconds: 15 * MINUTE },
  address: { failures: 30, seconds: 60 * MINUTE },
  account: { failures: 50, seconds: 60 * MINUTE },
};

const KNOWN_FOR_DAYS = 30;

/** The three counters' row keys for an attempt. */
function keysOf(email: string, address: string) {
  const account = normalizeEmail(email);
  return { account, accountAndAddress: `pair:${account}\n${address}`, address: `address:${address}`, accountOnly: `account:${account}` };
}

export class SignInThrottle {
  constructor(private readonly db: Db) {}

  /** Seconds to wait before this account may try again from this address, or null when it may now. */
  async retryAfter(email: string, address: string): Promise<number | null> {
    const keys = keysOf(email, address);
    const [rows, known] = await Promise.all([
      this.db
        .select({
          key: signInFailures.key,
          failures: signInFailures.failures,
          age: sql<number>`extract(epoch from (now() - ${signInFailures.windowStart}))`.mapWith(Number),
        })
        .from(signInFailures)
        .where(inArray(signInFailures.key, [keys.accountAndAddress, keys.address, keys.accountOnly])),
      this.isKnown(keys.account, address),
    ]);
    const limits: [string, Limit][] = [
      [keys.accountAndAddress, POLICY.accountAndAddress],
      [keys.address, POLICY.address],
      ...(known ? [] : ([[keys.accountOnly, POLICY.account]] as [string, Limit][])),
    ];
    let wait = 0;
    for (const [key, limit] of limits) {
      const row = rows.find((r) => r.key === key);
      if (row && row.failures >= limit.failures && row.age < limit.seconds) wait = Math.max(wait, limit.seconds - row.age);
    }
    return wait > 0 ? Math.max(1, Math.ceil(wait)) : null;
  }

  /** Counts a failure on all three counters; a counter whose window ended starts a new one. */
  async failed(email: string, address: string): Promise<void> {
    const keys = keysOf(email, address);
    const counters: [string, Limit][] = [
      [keys.accountAndAddress, POLICY.accountAndAddress],
      [keys.address, POLICY.address],
      [keys.accountOnly, POLICY.account],
    ];
    for (const [key, limit] of counters) {
      const ended = sql`${signInFailures.windowStart} <= now() - ${limit.seconds}::int * interval '1 second'`;
      await this.db
        .insert(signInFailures)
        .values({ key, windowStart: sql`now()`, failures: 1 })
        .onConflictDoUpdate({
          target: signInFailures.key,
          set: {
            failures: sql`case when ${ended} then 1 else ${signInFailures.failures} + 1 end`,
            windowStart: sql`case when ${ended} then now() else ${signInFailures.windowStart} end`,
          },
        });
    }
  }

  async succeeded(email: string, address: string): Promise<void> {
    const keys = keysOf(email, address);
    await this.db.delete(signInFailures).where(eq(signInFailures.key, keys.accountAndAddress));
    await this.db
      .insert(signInKnownAddresses)
      .values({ account: keys.account, address })
      .onConflictDoUpdate({ target: [signInKnownAddresses.account, signInKnownAddresses.address], set: { seenAt: sql`now()` } });
  }

  private async isKnown(account: string, address: string): Promise<boolean> {
    const [row] = await this.db
      .select({ account: signInKnownAddresses.account })
      .from(signInKnownAddresses)
      .where(
        and(
          eq(signInKnownAddresses.account, account),
          eq(signInKnownAddresses.address, address),
          gt(signInKnownAddresses.seenAt, sql`now() - ${KNOWN_FOR_DAYS}::int * interval '1 day'`),
        ),
      );
    return row !== undefined;
  }
}

/** Forgets counters whose longest window has ended: they refuse nothing any more. */
export async function deleteStaleSignInFailures(db: Db): Promise<void> {
  const longest = Math.max(...Object.values(POLICY).map((limit) => limit.seconds));
  await db.delete(signInFailures).where(sql`${signInFailures.windowStart} < now() - ${longest}::int * interval '1 second'`);
}
