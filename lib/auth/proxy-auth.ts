import NextAuth from "next-auth";
import { authConfig } from "./auth.config";

/** Session check only, no database: what `proxy.ts` runs in front of the dashboard. */
export const { auth } = NextAuth(authConfig);
