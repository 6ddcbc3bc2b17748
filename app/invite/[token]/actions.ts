"use server";

import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getApp } from "@/lib/current-app";
import type { ActionResult } from "@/lib/actions/result";
import { signedInUserId } from "@/lib/pages/member";
import { signIn, signOut } from "@/lib/auth/next-auth";
import { accountKind, ensureUser } from "@/lib/auth/users";
import { checkPassword, throttledText } from "@/lib/auth/password-sign-in";
import { newPasswordRefusal } from "@/lib/auth/new-password";
import { clientAddress } from "@/lib/client-address";
import { isAppError } from "@/lib/errors";
import { acceptInvitation, openInvitation } from "@/lib/teams/invitations";

/** Invitation acceptance (docs/teams-and-keys.md#members-and-invitations): as the signed-in person, with the password of an existing account, or with a new one. */

const gone: ActionResult = {
  ok: false,
  message: "This invitation has expired, was used or was withdrawn. Ask a lead of the team for a new one.",
};

export async function acceptSignedInAction(token: string): Promise<ActionResult> {
  const app = await getApp();
  const userId = await signedInUserId(app);
  if (!userId) return { ok: false, message: "Sign in first, then accept." };
  const accepted = await accept(token, userId);
  if (!accepted.ok) return accepted;
  redirect(`/t/${accepted.slug}`);
}

export async function acceptWithPasswordAction(token: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const app = await getApp();
  const invitation = await openInvitation(app.db, token);
  if (!invitation) return gone;
  const password = String(form.get("password") ?? "");
  let userId: number;
  const account = await accountKind(app.db, invitation.email);
  // An invitation never sets the password of an account that exists: the link would take it over.
  if (account === "github") return { ok: false, message: `${invitation.email} signs in with GitHub: sign in with it, then accept.` };
  if (account === "password") {
    const checked = await checkPassword(app.db, app.signInThrottle, invitation.email, password, clientAddress(await headers()));
    if (!checked.ok) {
      return {
        ok: false,
        message: checked.retryAfter === null ? `That is not the password of ${invitation.email}.` : throttledText(checked.retryAfter),
      };
    }
    userId = checked.user.id;
  } else {
    const tooShort = newPasswordRefusal(password);
    if (tooShort) return { ok: false, message: tooShort };
    if (password !== String(form.get("confirm") ?? "")) return { ok: false, message: "The two passwords differ; type the same one twice." };
    userId = (await ensureUser(app.db, invitation.email, password)).id;
  }
  const accepted = await accept(token, userId);
  if (!accepted.ok) return accepted;
  try {
    await signIn("credentials", { email: invitation.email, password, redirectTo: `/t/${accepted.slug}` });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; an Auth.js error means the sign-in was refused.
    if (error instanceof AuthError) redirect(`/signin?callbackUrl=${encodeURIComponent(`/t/${accepted.slug}`)}`);
    throw error;
  }
  return { ok: true, message: "Joined." };
}

export async function acceptWithGithubAction(token: string): Promise<void> {
  await signIn("github", { redirectTo: `/invite/${token}` });
}

/** Signs the person out and brings them back to the invitation, to open it as the one it is for. */
export async function signOutToInviteAction(token: string): Promise<void> {
  await signOut({ redirectTo: `/invite/${token}` });
}

async function accept(token: string, userId: number): Promise<{ ok: true; slug: string } | (ActionResult & { ok: false })> {
  const app = await getApp();
  try {
    const invitation = await acceptInvitation(app.db, token, userId);
    return { ok: true, slug: invitation.team.slug };
  } catch (error) {
    if (isAppError(error) && error.code === "InvitationNotFound") return { ok: false, message: gone.message };
    if (isAppError(error) && error.code === "InvitationNotYours")
      return { ok: false, message: `This invitation is not yours: ${error.message}.` };
    throw error;
  }
}
