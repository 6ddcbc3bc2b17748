import { LRUCache } from "lru-cache";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { normalizeEmail } from "./users";

/**
 * Failed sign-ins are throttled (ASVS V2.2.1) three ways, each counting failures only:
 *
 * - one account from one address: 5 failures in 15 minutes, then wait out the window — what a
 *   person mistyping never reaches, and what stops guessing one password;
 * - one address, any accounts: 30 failures an hour (stops spraying one password over many accounts);
 * - one account, any addresses: 50 failures an hour (stops a guesser spread over many addresses).
 *   This one does not apply to an address the account signed in from before, so a crowd of
 *   addresses cannot lock the owner out of their own account.
 *
 * Checked before the password is hashed, so a refused attempt costs nothing. A success clears the
 * account's count for that address.
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

export class SignInThrottle {
  private readonly accountAndAddress: RateLimiterMemory;
  private readonly address: RateLimiterMemory;
  private readonly account: RateLimiterMemory;
  /** Addresses each account signed in from, remembered for 30 days (bounded: a flood cannot grow it). */
  private readonly knownAddresses = new LRUCache<string, true>({ max: 50_000, ttl: 30 * 24 * 3_600_000 });

  constructor() {
    const limiter = ({ failures, seconds }: Limit) => new RateLimiterMemory({ points: failures, duration: seconds });
    this.accountAndAddress = limiter(POLICY.accountAndAddress);
    this.address = limiter(POLICY.address);
    this.account = limiter(POLICY.account);
  }

  /** Seconds to wait before this account may try again from this address, or null when it may now. */
  async retryAfter(email: string, address: string): Promise<number | null> {
    const account = normalizeEmail(email);
    const pair = `${account}\n${address}`;
    const checks: [RateLimiterMemory, string, number][] = [
      [this.accountAndAddress, pair, POLICY.accountAndAddress.failures],
      [this.address, address, POLICY.address.failures],
    ];
    if (!this.knownAddresses.has(pair)) checks.push([this.account, account, POLICY.account.failures]);
    let wait = 0;
    for (const [limiter, key, failures] of checks) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= failures) wait = Math.max(wait, state.msBeforeNext);
    }
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : null;
  }

  async failed(email: string, address: string): Promise<void> {
    const account = normalizeEmail(email);
    // penalty() counts without refusing: the refusal is retryAfter's to make.
    await Promise.all([
      this.accountAndAddress.penalty(`${account}\n${address}`),
      this.address.penalty(address),
      this.account.penalty(account),
    ]);
  }

  async succeeded(email: string, address: string): Promise<void> {
    const pair = `${normalizeEmail(email)}\n${address}`;
    this.knownAddresses.set(pair, true);
    await this.accountAndAddress.delete(pair);
  }
}

/**
 * The client's address: the last hop of X-Forwarded-For — the one the proxy in front of us added
 * (Next adds the socket's address when there is no proxy). A client can prepend anything, never
 * append, so the last entry is the one to trust.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || headers.get("x-real-ip")?.trim() || "unknown";
}
