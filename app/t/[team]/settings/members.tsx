import type { PersonSessions, SessionPolicy } from "@/lib/auth/dashboard-sessions";
import type { Member } from "@/lib/teams/members";
import { INVITATION_DAYS, type PendingInvitation } from "@/lib/teams/invitations";
import { ActionMessageSlot } from "@/components/action-message";
import { CredentialTable } from "@/components/credential-table";
import { EndSessionsButton } from "@/components/settings/end-sessions-button";
import { InviteForm } from "@/components/settings/invite-form";
import { RoleForm } from "@/components/settings/role-form";
import { RemoveMemberButton, WithdrawInvitationButton } from "@/components/settings/row-buttons";
import { Section } from "@/components/ui/section";
import { Table } from "@/components/ui/table";
import { changeRoleAction, endSessionsAction, inviteAction, removeMemberAction, withdrawInvitationAction } from "./actions";
import { When } from "@/components/ui/when";

/** The team's members; a lead also sees their sessions, changes roles, removes people and invites them. */
export function MembersSection({
  slug,
  isLead,
  members,
  sessions,
  policy,
  invitations,
}: {
  slug: string;
  isLead: boolean;
  members: Member[];
  sessions: Map<number, PersonSessions>;
  policy: SessionPolicy;
  invitations: PendingInvitation[];
}) {
  return (
    <Section
      aria-label="Members"
      title="Members"
      description={
        isLead && (
          <>
            A session ends at sign-out, after {policy.idleMs / 60_000} idle minutes and {policy.maxMs / 3_600_000} hours after sign-in.
            Ending a member&apos;s sessions signs them out of every browser at once.
          </>
        )
      }
    >
      <ActionMessageSlot>
        <Table
          label="Members and their roles"
          head={
            <>
              <th className="py-1 pr-3">Email</th>
              <th className="py-1 pr-3">Role</th>
              {isLead && <th className="py-1 pr-3">Sessions</th>}
              {isLead && (
                <th className="py-1 pr-3">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </>
          }
        >
          {members.map((m) => (
            <MemberRow key={m.userId} slug={slug} member={m} isLead={isLead} live={sessions.get(m.userId)} />
          ))}
        </Table>
        {isLead && <Invitations slug={slug} invitations={invitations} />}
      </ActionMessageSlot>
    </Section>
  );
}

function MemberRow({ slug, member: m, isLead, live }: { slug: string; member: Member; isLead: boolean; live: PersonSessions | undefined }) {
  return (
    <tr className="border-t border-slate-100" data-member={m.email}>
      <td className="py-1.5 pr-3">{m.email}</td>
      <td className="py-1.5 pr-3 text-slate-600">
        {isLead ? <RoleForm email={m.email} role={m.role} action={changeRoleAction.bind(null, slug, m.email)} /> : m.role}
      </td>
      {isLead && (
        <td className="py-1.5 pr-3 text-slate-600" data-testid="sessions">
          {live ? (
            <>
              {live.active} active, last seen {live.lastSeenAt && <When at={live.lastSeenAt} />}
            </>
          ) : (
            "none"
          )}
        </td>
      )}
      {isLead && (
        <td className="py-1.5 text-right">
          <div className="flex flex-wrap justify-end gap-2">
            <EndSessionsButton email={m.email} active={live?.active ?? 0} action={endSessionsAction.bind(null, slug, m.userId)} />
            <RemoveMemberButton email={m.email} action={removeMemberAction.bind(null, slug, m.email)} />
          </div>
        </td>
      )}
    </tr>
  );
}

/** Invite a person, and the invitations not yet taken up, each of which can be withdrawn. */
function Invitations({ slug, invitations }: { slug: string; invitations: PendingInvitation[] }) {
  return (
    <div className="mt-5 space-y-3 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold">Invite a person</h3>
      <p className="text-sm text-slate-500">
        The link works once and for {INVITATION_DAYS} days; the person sets a password (or signs in with GitHub) and joins with the role.
      </p>
      <InviteForm action={inviteAction.bind(null, slug)} />
      {invitations.length > 0 && (
        <CredentialTable label="Pending invitations" region="Invitations not yet taken up" columns={["Invited", "Role", "Expires"]}>
          {invitations.map((invitation) => (
            <tr key={invitation.id} className="border-t border-slate-100" data-invitation={invitation.email}>
              <td className="py-1.5 pr-3">{invitation.email}</td>
              <td className="py-1.5 pr-3 text-slate-600">{invitation.role}</td>
              <td className="py-1.5 pr-3 whitespace-nowrap text-slate-600">
                <When at={invitation.expiresAt} />
              </td>
              <td className="py-1.5 text-right">
                <WithdrawInvitationButton email={invitation.email} action={withdrawInvitationAction.bind(null, slug, invitation.id)} />
              </td>
            </tr>
          ))}
        </CredentialTable>
      )}
    </div>
  );
}
