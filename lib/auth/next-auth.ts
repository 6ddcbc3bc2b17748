import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { z } from "zod";
import { getApp } from "../current-app";
import { env } from "../env";
import { endDashboardSession, startDashboardSession } from "./dashboard-sessions";
import { clientAddress } from "../client-address";
import { checkPassword } from "./password-sign-in";
import { ensureGithubUser } from "./users";
import { githubAccountEmail, githubVerifiedEmails } from "./github-emails";

/**
 * Sign-in (docs/teams-and-keys.md#sign-in): GitHub when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set, email and
 * password otherwise. The session cookie is a JWT holding our user id and a dashboard session id;
 * the session itself lives in the database (dashboard-sessions.ts), so sign-out ends it for good.
 */

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

/** Too many failed sign-ins: the code carries the seconds to wait, to the sign-in page's message. */
class SignInThrottled extends CredentialsSignin {
  constructor(seconds: number) {
    super();
    this.code = `throttled-${seconds}`;
  }
}

function providers() {
  const github = env().github;
  if (github) return [GitHub({ clientId: github.id, clientSecret: github.secret })];
  return [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(input, request) {
        const parsed = credentialsSchema.safeParse(input);
        if (!parsed.success) throw new CredentialsSignin();
        const { email, password } = parsed.data;
        const { db, signInThrottle } = await getApp();
        const address = clientAddress(request.headers);
        const checked = await checkPassword(db, signInThrottle, email, password, address);
        if (!checked.ok) throw checked.retryAfter === null ? new CredentialsSignin() : new SignInThrottled(checked.retryAfter);
        const { user } = checked;
        return { id: String(user.id), email: user.email, name: user.name };
      },
    }),
  ];
}

export const { handlers, signIn, signOut } = NextAuth({
  pages: { signIn: "/signin" },
  // The cookie lives no longer than the longest session; the database decides before that.
  session: { strategy: "jwt", maxAge: Math.floor(env().sessions.maxMs / 1000) },
  // The local default runs behind whatever host the user types; deployments set AUTH_URL.
  trustHost: true,
  providers: providers(),
  callbacks: {
    async jwt({ token, user, account, profile }) {
      if (!user && !account) return token;
      const app = await getApp();
      if (account?.provider === "github" && profile) {
        const verified = account.access_token ? await githubVerifiedEmails(account.access_token) : [];
        const email = githubAccountEmail(profile.email, verified, String(profile.id));
        const person = await ensureGithubUser(app.db, String(profile.id), email, profile.name ?? null, verified);
        token.uid = person.id;
      } else if (user?.id) {
        token.uid = Number(user.id);
      }
      // A sign-in starts a dashboard session; later calls keep the one the cookie names.
      if (token.uid) token.sid = await startDashboardSession(app.db, token.uid, app.sessionPolicy);
      return token;
    },
    session({ session, token }) {
      if (token.uid) session.user.id = String(token.uid);
      return session;
    },
  },
  events: {
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (sid) await endDashboardSession((await getApp()).db, sid);
    },
  },
});

export function signInMethod(): "github" | "credentials" {
  return env().github ? "github" : "credentials";
}
