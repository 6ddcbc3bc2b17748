import type { Metadata } from "next";
import { listApiKeys } from "@/lib/auth/api-keys";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { sessionsOf } from "@/lib/auth/dashboard-sessions";
import { listMembers } from "@/lib/teams/members";
import Link from "next/link";
import { listPromptSets, promptSetJson } from "@/lib/activation/prompt-sets";
import { PromptSetEditor } from "@/components/activation/prompt-set-editor";
import { savePromptSetAction } from "../activation/actions";
import {
  AutoPromoteForm,
  CreateInstallLinkForm,
  CreateKeyForm,
  EndSessionsButton,
  InviteForm,
  ListingSettingsForm,
  RemoveMemberButton,
  RoleForm,
  WithdrawInvitationButton,
  RevokeInstallLinkButton,
  RevokeKeyButton,
} from "@/components/settings-forms";
import { CredentialTable, RevokeCell } from "@/components/credential-table";
import { listInstallLinks } from "@/lib/teams/install-links";
import { INVITATION_DAYS, pendingInvitations } from "@/lib/teams/invitations";
import {
  createInstallLinkAction,
  autoPromoteAction,
  changeRoleAction,
  createKeyAction,
  endSessionsAction,
  inviteAction,
  removeMemberAction,
  withdrawInvitationAction,
  revokeInstallLinkAction,
  revokeKeyAction,
  updateListingSettingsAction,
} from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: slug } = await params;
  const member = await requireMember(slug, `/t/${slug}/settings`);
  const { app, team } = member;
  const isLead = roleAtLeast(member.role, "lead");
  const [members, keys, links, invitations, promptSets] = await Promise.all([
    listMembers(app.db, team.id),
    isLead ? listApiKeys(app.db, team.id) : Promise.resolve([]),
    isLead ? listInstallLinks(app.db, team.id) : Promise.resolve([]),
    isLead ? pendingInvitations(app.db, team.id) : Promise.resolve([]),
    isLead ? listPromptSets(app.db, team.id) : Promise.resolve([]),
  ]);
  const sessions = isLead
    ? await sessionsOf(
        app.db,
        members.map((m) => m.userId),
        app.sessionPolicy,
      )
    : new Map();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Settings</h1>
      {!isLead && (
        <p className="rounded-md bg-slate-100 p-3 text-sm">Only a lead can change settings and see API keys; you are {member.role}.</p>
      )}

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Members">
        <h2 className="mb-1 font-semibold">Members</h2>
        {isLead && (
          <p className="mb-3 text-sm text-slate-500">
            A session ends at sign-out, after {app.sessionPolicy.idleMs / 60_000} idle minutes and {app.sessionPolicy.maxMs / 3_600_000}{" "}
            hours after sign-in. Ending a member&apos;s sessions signs them out of every browser at once.
          </p>
        )}
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1 pr-3">Email</th>
                <th className="py-1 pr-3">Role</th>
                {isLead && <th className="py-1 pr-3">Sessions</th>}
                {isLead && (
                  <th className="py-1 pr-3">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const live = sessions.get(m.userId);
                return (
                  <tr key={m.userId} className="border-t border-slate-100" data-member={m.email}>
                    <td className="py-1.5 pr-3">{m.email}</td>
                    <td className="py-1.5 pr-3 text-slate-600">
                      {isLead ? <RoleForm email={m.email} role={m.role} action={changeRoleAction.bind(null, slug, m.email)} /> : m.role}
                    </td>
                    {isLead && (
                      <td className="py-1.5 pr-3 text-slate-600" data-testid="sessions">
                        {live
                          ? `${live.active} active, last seen ${live.lastSeenAt?.toISOString().slice(0, 16).replace("T", " ")} UTC`
                          : "none"}
                      </td>
                    )}
                    {isLead && (
                      <td className="py-1.5 text-right">
                        <div className="flex flex-wrap justify-end gap-2">
                          <EndSessionsButton
                            email={m.email}
                            active={live?.active ?? 0}
                            action={endSessionsAction.bind(null, slug, m.userId)}
                          />
                          <RemoveMemberButton email={m.email} action={removeMemberAction.bind(null, slug, m.email)} />
                        </div>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {isLead && (
          <div className="mt-5 space-y-3 border-t border-slate-100 pt-4">
            <h3 className="text-sm font-semibold">Invite a person</h3>
            <p className="text-sm text-slate-500">
              The link works once and for {INVITATION_DAYS} days; the person sets a password (or signs in with GitHub) and joins with the
              role.
            </p>
            <InviteForm action={inviteAction.bind(null, slug)} />
            {invitations.length > 0 && (
              <CredentialTable label="Pending invitations" columns={["Invited", "Role", "Expires"]}>
                {invitations.map((invitation) => (
                  <tr key={invitation.id} className="border-t border-slate-100" data-invitation={invitation.email}>
                    <td className="py-1.5 pr-3">{invitation.email}</td>
                    <td className="py-1.5 pr-3 text-slate-600">{invitation.role}</td>
                    <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">{invitation.expiresAt.toISOString().slice(0, 10)}</td>
                    <td className="py-1.5 text-right">
                      <WithdrawInvitationButton
                        email={invitation.email}
                        action={withdrawInvitationAction.bind(null, slug, invitation.id)}
                      />
                    </td>
                  </tr>
                ))}
              </CredentialTable>
            )}
          </div>
        )}
      </section>

      {isLead && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="API keys">
          <h2 className="mb-1 font-semibold">API keys</h2>
          <p className="mb-3 text-sm text-slate-500">
            Agents send a key as <code>Authorization: Bearer &lt;key&gt;</code>. Keys are stored hashed: a key is shown once, when it is
            created.
          </p>
          <CreateKeyForm action={createKeyAction.bind(null, slug)} />
          <CredentialTable label="API keys" columns={["Name", "Key", "Scopes", "Created"]}>
            {keys.map((key) => (
              <tr key={key.id} className="border-t border-slate-100" data-key={key.name}>
                <td className="py-1.5">{key.name}</td>
                <td className="py-1.5 font-mono text-xs">{key.prefix}…</td>
                <td className="py-1.5">{key.scopes.join(", ")}</td>
                <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">{key.createdAt.toISOString().slice(0, 10)}</td>
                <RevokeCell revokedAt={key.revokedAt}>
                  <RevokeKeyButton name={key.name} action={revokeKeyAction.bind(null, slug, key.id)} />
                </RevokeCell>
              </tr>
            ))}
          </CredentialTable>
        </section>
      )}

      {isLead && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="install-links">
          <h2 id="install-links" className="mb-1 font-semibold">
            Install links
          </h2>
          <p className="mb-3 text-sm text-slate-500">
            For installers that cannot send a key: <code>npx skills add &lt;link&gt;</code> lists and installs the team&apos;s skills. A
            link reads the skills index and its files, nothing else; anyone who has it can, until you revoke it.
          </p>
          <CreateInstallLinkForm action={createInstallLinkAction.bind(null, slug)} />
          {links.length > 0 && (
            <CredentialTable label="Install links" columns={["Link", "Created", "By"]}>
              {links.map((link) => (
                <tr key={link.id} className="border-t border-slate-100" data-install-link={link.prefix}>
                  <td className="py-1.5 pr-3 font-mono text-xs whitespace-nowrap">/i/{link.prefix}…</td>
                  <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">{link.createdAt.toISOString().slice(0, 10)}</td>
                  <td className="py-1.5 pr-3 text-slate-600">{link.createdBy ?? "an API key"}</td>
                  <RevokeCell revokedAt={link.revokedAt}>
                    <RevokeInstallLinkButton prefix={link.prefix} action={revokeInstallLinkAction.bind(null, slug, link.id)} />
                  </RevokeCell>
                </tr>
              ))}
            </CredentialTable>
          )}
        </section>
      )}

      {isLead && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="promotion">
          <h2 id="promotion" className="mb-1 font-semibold">
            Promotion
          </h2>
          <p className="mb-3 text-sm text-slate-500">
            When an evaluation finds an amendment improved, it goes live at once, or waits for a lead to approve or reject it on the
            evaluation page. Either way it is in the history.
          </p>
          <AutoPromoteForm action={autoPromoteAction.bind(null, slug)} autoPromote={team.autoPromote} />
        </section>
      )}

      {isLead && (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-1 font-semibold">Listing</h2>
          <p className="mb-3 text-sm text-slate-500">
            The cap and description cut of the listing agents get; try values first on the listing budget page.
          </p>
          <ListingSettingsForm
            action={updateListingSettingsAction.bind(null, slug)}
            cap={team.listingCap}
            descMax={team.descMax}
            loadHint={team.loadHint}
          />
        </section>
      )}

      {isLead && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="prompt-sets">
          <h2 id="prompt-sets" className="mb-1 font-semibold">
            Prompt sets
          </h2>
          <p className="mb-3 text-sm text-slate-500">
            The prompts activation runs ask, as JSON <code className="font-mono">{"{id, prompt, expected, expectNone}"}</code>: D cases name
            the skill&apos;s keywords, P paraphrase them, G should load nothing. Runs start on the{" "}
            <Link className="text-indigo-700 underline" href={`/t/${slug}/activation`}>
              Activation
            </Link>{" "}
            page.
          </p>
          <PromptSetEditor sets={promptSets.map(promptSetJson)} save={savePromptSetAction.bind(null, slug)} />
        </section>
      )}
    </div>
  );
}
