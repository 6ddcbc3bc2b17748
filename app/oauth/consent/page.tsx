import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getApp } from "@/lib/current-app";
import { signedInUserId } from "@/lib/pages/member";
import { findPendingAuthorization } from "@/lib/oauth/authorizations";
import { clientName } from "@/lib/oauth/clients";
import { getUser } from "@/lib/auth/users";
import { teamsOfUser } from "@/lib/teams/teams";
import { ConsentForm } from "@/components/consent-form";
import { CARD } from "@/components/ui/card";
import { CONSENT_PAGE } from "@/lib/http/oauth-paths";
import { answerConsent } from "./actions";

export const metadata: Metadata = { title: "Connect an MCP client" };

/**
 * Where /api/oauth/authorize sends a member's browser (docs/mcp.md): signed in (password or GitHub, the
 * dashboard's own sign-in), they see which client asks, where it will send them back, and choose
 * the team and what the client may do there.
 */
export default async function ConsentPage({ searchParams }: { searchParams: Promise<{ request?: string }> }) {
  await connection();
  const { request = "" } = await searchParams;
  const app = await getApp();
  const userId = await signedInUserId(app);
  if (userId === null) redirect(`/signin?callbackUrl=${encodeURIComponent(`${CONSENT_PAGE}?request=${request}`)}`);
  const [pending, user, memberships] = await Promise.all([
    findPendingAuthorization(app.db, request),
    getUser(app.db, userId),
    teamsOfUser(app.db, userId),
  ]);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-8">
      <div className={`w-full max-w-lg space-y-4 p-6 md:p-8 ${CARD}`}>
        <h1 className="text-xl font-semibold">Connect an MCP client</h1>
        {!pending ? (
          <p className="text-sm text-slate-700" data-testid="consent-gone">
            This sign-in request has expired or was already answered: start again from your MCP client.
          </p>
        ) : memberships.length === 0 ? (
          <p className="text-sm text-slate-700" data-testid="consent-no-team">
            You are in no team yet, so there is nothing a client could act on: ask a team lead to add you.
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              <strong data-testid="consent-client">{clientName(pending.client)}</strong> asks to use Skillgate as you,{" "}
              <strong>{user?.email}</strong>, through MCP. It will send you back to{" "}
              <code className="break-all text-xs">{pending.redirectUri}</code>.
            </p>
            <p className="text-sm text-slate-600">
              It acts with the access you choose here, never more than your role; you can revoke it on the team&apos;s settings page, and it
              ends if you leave the team.
            </p>
            <ConsentForm
              teams={memberships.map((m) => ({ slug: m.team.slug, name: m.team.name, role: m.role }))}
              action={answerConsent.bind(null, pending.id)}
            />
          </>
        )}
      </div>
    </main>
  );
}
