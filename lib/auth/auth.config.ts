import type { NextAuthConfig } from "next-auth";

/**
 * The part of the Auth.js set-up that needs no database, shared by `proxy.ts` (which only
 * checks that a session exists) and the full set-up in `next-auth.ts`.
 */
export const authConfig = {
  pages: { signIn: "/signin" },
  session: { strategy: "jwt" },
  // The local default runs behind whatever host the user types; deployments set AUTH_URL.
  trustHost: true,
  providers: [],
  callbacks: {
    authorized: ({ auth }) => Boolean(auth?.user),
    session({ session, token }) {
      if (token.uid) session.user.id = String(token.uid);
      return session;
    },
  },
} satisfies NextAuthConfig;
