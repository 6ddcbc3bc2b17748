import { notFound, redirect } from "next/navigation";
import { getApp } from "../app/boot";
import type { App } from "../app/app";
import { getUser, type User } from "./users";
import { roleAtLeast, type Role } from "./scopes";
import { membershipOf, teamsOfUser, type Membership } from "../teams/teams";
import { auth } from "./next-auth";

export interface Member extends Membership {
  app: App;
  user: User;
  teams: Membership[];
}

/** The signed-in person and their role in the team; a non-member gets 404, as if the team did not exist. */
export async function requireMember(slug: string, path = `/t/${slug}`): Promise<Member> {
  const session = await auth();
  const userId = Number(session?.user?.id);
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  const app = await getApp();
  const [user, membership, teams] = await Promise.all([
    getUser(app.db, userId),
    membershipOf(app.db, userId, slug),
    teamsOfUser(app.db, userId),
  ]);
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  if (!membership) notFound();
  return { app, user, teams, ...membership };
}

export function canAct(member: Member, role: Role): boolean {
  return roleAtLeast(member.role, role);
}
