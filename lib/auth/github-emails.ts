import { z } from "zod";
import { logUnexpected } from "../log";
import { normalizeEmail } from "./users";

/** What GitHub answers for `GET /user/emails` (scope `user:email`, which Auth.js's GitHub provider asks for). */
const emailsSchema = z.array(z.object({ email: z.string(), verified: z.boolean(), primary: z.boolean().optional() }));

/**
 * The verified addresses of a GitHub account, normalized, the primary one first: an invitation belongs to its address,
 * and a GitHub account proves only the addresses GitHub verified (docs/teams-and-keys.md#members-and-invitations). An answer that cannot be
 * read proves none, so nobody is let in on a guess.
 */
export async function githubVerifiedEmails(accessToken: string, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  try {
    const res = await fetchImpl("https://api.github.com/user/emails", {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/vnd.github+json", "user-agent": "skillgate" },
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`GitHub answered ${res.status}`);
    const parsed = emailsSchema.safeParse(await res.json());
    if (!parsed.success) throw new Error("GitHub's answer is not a list of addresses");
    const verified = parsed.data.filter((entry) => entry.verified).sort((a, b) => Number(b.primary ?? false) - Number(a.primary ?? false));
    return [...new Set(verified.map((entry) => normalizeEmail(entry.email)))];
  } catch (error) {
    // The account then proves no address and signs in as GitHub's no-reply one: the log says why.
    logUnexpected("GitHub sign-in: reading the account's verified addresses (GET /user/emails)", error);
    return [];
  }
}

/**
 * The address a GitHub account signs in as: its profile address when GitHub verified it, else its
 * first verified one, else GitHub's no-reply address for it. An existing account with that address
 * is linked to the GitHub account, so an address nobody verified must never be used.
 */
export function githubAccountEmail(profileEmail: string | null | undefined, verified: readonly string[], githubId: string): string {
  if (profileEmail && verified.includes(normalizeEmail(profileEmail))) return normalizeEmail(profileEmail);
  return verified[0] ?? `${githubId}@users.noreply.github.com`;
}
