import { headers } from "next/headers";
import { cache } from "react";
import { notFound, redirect } from "next/navigation";
import { getApp } from "../current-app";
import type { App } from "../contracts/app";
import { checkDashboardSession } from "../auth/dashboard-sessions";
import { readSessionToken } from "../auth/session-cookie";
import { getUser, type User } from "../auth/users";
import { membershipOf, teamsOfUser, type Membership } from "../teams/teams";

export interface Member extends Membership {
  app: App;
  user: User;
  teams: Membership[];
}

/**
 * The signed-in person of this request, or null: the cookie must name a live dashboard session of
 * that person. The proxy checks the same before any page; this is the check pages and actions rely on.
 */
export async function signedInUserId(app: App): Promise<number | null> {
  const token = await readSessionToken(await headers());
  if (!token) return null;
  const live = await checkDashboardSession(app.database, token.sessionId, app.sessionPolicy);
  return live?.userId === token.userId ? token.userId : null;
}

/** The signed-in person at a team's address: their teams, and their membership of this one (null when they are not in it). */
export interface Visitor {
  app: App;
  user: User;
  teams: Membership[];
  membership: Membership | null;
}

/**
 * Who this request is and what they are in the team, looked up once per request: the layout, the
 * page and its sections all ask, and React's cache answers them from the first lookup.
 */
const lookUpVisitor = cache(async (slug: string) => {
  const app = await getApp();
  const userId = await signedInUserId(app);
  if (!userId) return { app, signedIn: null };
  const [user, membership, teams] = await Promise.all([
    getUser(app.db, userId),
    membershipOf(app.db, userId, slug),
    teamsOfUser(app.db, userId),
  ]);
  return { app, signedIn: user ? { user, membership, teams } : null };
});

/** Who is looking at `/t/<slug>…`; signed out (or a session whose person is gone) goes to sign in and back to `path`. */
export async function visitorOf(slug: string, path = `/t/${slug}`): Promise<Visitor> {
  const { app, signedIn } = await lookUpVisitor(slug);
  if (!signedIn) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  return { app, ...signedIn };
}

/** The signed-in person and their role in the team; a non-member gets 404, as if the team did not exist. */
export async function requireMember(slug: string, path = `/t/${slug}`): Promise<Member> {
  const { membership, ...visitor } = await visitorOf(slug, path);
  if (!membership) notFound();
  return { ...visitor, ...membership };
}
