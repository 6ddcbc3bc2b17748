import type { Metadata } from "next";
import type { Db } from "@/db/client";
import type { TeamId } from "@/lib/teams/teams";
import { headers } from "next/headers";
import { listApiKeys } from "@/lib/auth/api-keys";
import { memberKeyOf } from "@/lib/auth/member-keys";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { sessionsOf } from "@/lib/auth/dashboard-sessions";
import { listMembers } from "@/lib/teams/members";
import { listInstallLinks } from "@/lib/teams/install-links";
import { pendingInvitations } from "@/lib/teams/invitations";
import { teamSettings } from "@/lib/listing/settings";
import { publicOrigin } from "@/lib/http/origin";
import { listConnections } from "@/lib/oauth/connections";
import { listWebhooks, listDeliveries } from "@/lib/webhooks/webhooks";
import { mailEventsOf } from "@/lib/webhooks/mail-subscriptions";
import { PageHeader } from "@/components/ui/page-header";
import type { TeamPageProps } from "../team-page";
import { MembersSection } from "./members";
import { WebhooksSection } from "./webhooks";
import {
  ApiKeysSection,
  ConnectionsSection,
  InstallLinksSection,
  ListingSection,
  MemberKeySection,
  PromotionSection,
  PromptSetsLink,
  TelemetrySection,
} from "./sections";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: TeamPageProps) {
  const { team: slug } = await params;
  const member = await requireMember(slug, `/t/${slug}/settings`);
  const { app, team } = member;
  const isLead = roleAtLeast(member.role, "lead");
  const [members, keys, links, invitations, settings, connections, memberKey] = await Promise.all([
    listMembers(app.db, team.id),
    isLead ? listApiKeys(app.db, team.id) : Promise.resolve([]),
    isLead ? listInstallLinks(app.db, team.id) : Promise.resolve([]),
    isLead ? pendingInvitations(app.db, team.id) : Promise.resolve([]),
    isLead ? teamSettings(app.db, team.id) : Promise.resolve(null),
    listConnections(app.db, team.id, { userId: member.user.id, role: member.role }),
    memberKeyOf(app.db, team.id, member.user.id),
  ]);
  const { origin } = publicOrigin(await headers());
  const webhooks = isLead ? await teamWebhooks(app.db, team.id) : { hooks: [], readAt: new Date(0) };
  const mail = isLead && app.mailer ? await mailEventsOf(app.db, team.id, member.user.id) : null;
  const sessions = isLead
    ? await sessionsOf(
        app.db,
        members.map((m) => m.userId),
        app.sessionPolicy,
      )
    : new Map();
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" />
      {!isLead && (
        <p className="rounded-md bg-slate-100 p-3 text-sm">
          Only a lead can change settings and see API keys; you are {member.role}. Here you make your own Claude Code key and see the MCP
          clients you signed in.
        </p>
      )}
      <MembersSection
        slug={slug}
        isLead={isLead}
        members={members}
        sessions={sessions}
        policy={app.sessionPolicy}
        invitations={invitations}
      />
      <MemberKeySection slug={slug} origin={origin} live={memberKey} />
      <ConnectionsSection slug={slug} connections={connections} isLead={isLead} />
      {isLead && (
        <>
          <ApiKeysSection slug={slug} keys={keys} />
          <InstallLinksSection slug={slug} links={links} />
          <WebhooksSection slug={slug} hooks={webhooks.hooks} readAt={webhooks.readAt} mail={mail} />
          <PromotionSection slug={slug} team={team} />
          <ListingSection slug={slug} team={team} />
          {settings && <TelemetrySection slug={slug} settings={settings} origin={origin} />}
          <PromptSetsLink slug={slug} />
        </>
      )}
    </div>
  );
}

/** Each webhook with its latest deliveries, newest first, and when they were read. */
async function teamWebhooks(db: Db, teamId: TeamId) {
  const hooks = await listWebhooks(db, teamId);
  const withDeliveries = await Promise.all(
    hooks.map(async (hook) => ({ ...hook, deliveries: await listDeliveries(db, teamId, hook.id, { limit: 10 }) })),
  );
  return { hooks: withDeliveries, readAt: new Date() };
}
