import type { Metadata } from "next";
import Link from "next/link";
import { getApp } from "@/lib/current-app";
import { signedInUserId } from "@/lib/pages/member";
import { signInMethod } from "@/lib/auth/next-auth";
import { accountKind, ownedEmails } from "@/lib/auth/users";
import { isInvitee, openInvitation } from "@/lib/teams/invitations";
import { AcceptSignedInForm, AcceptWithPasswordForm } from "@/components/invite-forms";
import { acceptSignedInAction, acceptWithGithubAction, acceptWithPasswordAction, signOutToInviteAction } from "./actions";
import { When } from "@/components/ui/when";

export const metadata: Metadata = { title: "Join a team" };

const ROLE_MEANS = {
  viewer: "see the team's skills, usage, ledger and history",
  editor: "edit learned skills and run evaluations, besides seeing everything",
  lead: "do everything, settings and members included",
} as const;

/** `/invite/<token>`: a one-time invitation to a team (docs/teams-and-keys.md#members-and-invitations), accepted signed in, with a password, or with GitHub. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const app = await getApp();
  const invitation = await openInvitation(app.db, token);
  const userId = await signedInUserId(app);
  const owned = userId ? await ownedEmails(app.db, userId) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md space-y-5 rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        {!invitation ? (
          <>
            <h1 className="text-xl font-semibold">This invitation no longer opens anything</h1>
            <p className="text-sm text-slate-600">It has expired, was used or was withdrawn. Ask a lead of the team for a new one.</p>
            <Link href="/signin" className="text-sm font-medium text-indigo-700 underline">
              Sign in
            </Link>
          </>
        ) : (
          <>
            <div>
              <h1 className="text-xl font-semibold">Join {invitation.team.name}</h1>
              <p className="mt-1 text-sm text-slate-600">
                {invitation.email} is invited as <strong>{invitation.role}</strong>: {ROLE_MEANS[invitation.role]}. The invitation expires{" "}
                <When at={invitation.expiresAt} />.
              </p>
            </div>
            {owned && isInvitee(owned.all, invitation.email) ? (
              <AcceptSignedInForm action={acceptSignedInAction.bind(null, token)} email={owned.email} />
            ) : owned ? (
              <div className="space-y-3" data-testid="not-yours">
                <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
                  This invitation is for <strong>{invitation.email}</strong>, and you are signed in as <strong>{owned.email}</strong>. Only{" "}
                  {invitation.email} can accept it; the link stays unused for them. If it is yours, sign out and open it again as{" "}
                  {invitation.email}.
                </p>
                <form action={signOutToInviteAction.bind(null, token)}>
                  <button className="w-full rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100">
                    Sign out of {owned.email}
                  </button>
                </form>
              </div>
            ) : signInMethod() === "github" ? (
              <form action={acceptWithGithubAction.bind(null, token)}>
                <button className="w-full rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700">
                  Sign in with GitHub to join
                </button>
              </form>
            ) : (
              <AcceptWithPasswordForm
                action={acceptWithPasswordAction.bind(null, token)}
                email={invitation.email}
                newAccount={(await accountKind(app.db, invitation.email)) === "none"}
              />
            )}
          </>
        )}
      </div>
    </main>
  );
}
