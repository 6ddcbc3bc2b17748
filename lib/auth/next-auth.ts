import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { z } from "zod";
import { getApp } from "../app/boot";
import { env } from "../env";
import { authConfig } from "./auth.config";
import { ensureGithubUser, verifyCredentials } from "./users";

/**
 * Sign-in (§1, §13): GitHub when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set, email and
 * password otherwise. Sessions are JWTs holding our user id; teams and roles are read per request.
 */

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

function providers() {
  const github = env().github;
  if (github) return [GitHub({ clientId: github.id, clientSecret: github.secret })];
  return [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(input) {
        const parsed = credentialsSchema.safeParse(input);
        if (!parsed.success) throw new CredentialsSignin();
        const { db } = await getApp();
        const user = await verifyCredentials(db, parsed.data.email, parsed.data.password);
        if (!user) throw new CredentialsSignin();
        return { id: String(user.id), email: user.email, name: user.name };
      },
    }),
  ];
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: providers(),
  callbacks: {
    ...authConfig.callbacks,
    async jwt({ token, user, account, profile }) {
      if (account?.provider === "github" && profile) {
        const { db } = await getApp();
        const email = profile.email ?? `${String(profile.id)}@users.noreply.github.com`;
        const person = await ensureGithubUser(db, String(profile.id), email, profile.name ?? null);
        token.uid = person.id;
      } else if (user?.id) {
        token.uid = Number(user.id);
      }
      return token;
    },
  },
});

export function signInMethod(): "github" | "credentials" {
  return env().github ? "github" : "credentials";
}
