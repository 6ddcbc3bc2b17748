import { z } from "zod";
import { normalizeEmail } from "./users";

/** What GitHub answers for `GET /user/emails` (scope `user:email`, which Auth.js's GitHub provider asks for). */
const emailsSchema = z.array(z.object({ email: z.string(), verified: z.boolean() }));

/**
 * The verified addresses of a GitHub account, normalized: an invitation belongs to its address,
 * and a GitHub account proves only the addresses GitHub verified (§10). An answer that cannot be
 * read proves none, so nobody is let in on a guess.
 */
export async function githubVerifiedEmails(accessToken: string, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  try {
    const res = await fetchImpl("https://api.github.com/user/emails", {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/vnd.github+json", "user-agent": "skillgate" },
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return [];
    const parsed = emailsSchema.safeParse(await res.json());
    if (!parsed.success) return [];
    return [...new Set(parsed.data.filter((entry) => entry.verified).map((entry) => normalizeEmail(entry.email)))];
  } catch {
    return [];
  }
}
