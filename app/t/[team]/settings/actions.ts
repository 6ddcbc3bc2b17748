"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { makeMemberKey } from "@/lib/auth/member-keys";
import { scopesOfAccess } from "@/lib/auth/scopes";
import { createApiKeyBody, listingSettingsBody, settingsPatchBody, telemetrySettingsBody } from "@/lib/contracts/settings";
import { updateTeamSettings } from "@/lib/listing/settings";
import { changeRole, endMemberSessions, removeMember } from "@/lib/teams/members";
import { changeRoleBody, inviteBody } from "@/lib/contracts/members";
import { invite, withdrawInvitation, type InvitationId, type NotMailed } from "@/lib/teams/invitations";
import { publicOrigin } from "@/lib/http/origin";
import { labelParam } from "@/lib/skills/label";
import { createInstallLink, revokeInstallLink, type InstallLinkId } from "@/lib/teams/install-links";
import { revokeConnection } from "@/lib/oauth/connections";

const asLead = (slug: string) => ({ team: slug, page: `/t/${slug}/settings`, role: "lead" as const });
const nothing = z.undefined();

export async function createKeyAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { name: String(form.get("name") ?? ""), scopes: scopesOfAccess(String(form.get("access"))) };
  return memberAction({ ...asLead(slug), schema: createApiKeyBody, input }, async (member, { name, scopes }) => {
    const { id, key } = await createApiKey(member.app.db, { teamId: member.team.id, name, scopes, createdBy: member.user.id });
    return { ok: true, message: "Key created. Copy it now: it is not shown again.", key, keyId: id };
  });
}

export async function revokeKeyAction(slug: string, keyId: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await revokeApiKey(member.app.db, member.team.id, keyId);
    return { ok: true, message: "Key revoked." };
  });
}

/** Any member makes their own telemetry key; the one they had stops working (lib/auth/member-keys.ts). */
export async function makeMemberKeyAction(slug: string, _previous: ActionResult | null, _form: FormData): Promise<ActionResult> {
  return memberAction({ team: slug, page: `/t/${slug}/settings`, role: "viewer", schema: nothing, input: undefined }, async (member) => {
    const { id, key } = await makeMemberKey(member.app.db, member.team.id, member.user.id);
    return { ok: true, message: "Key made. Copy it now: it is not shown again. Any key you had before no longer works.", key, keyId: id };
  });
}

/** A blank label box is a link for the default versions; a filled one must be a valid label (docs/learned-skills.md#labels). */
const installLinkForm = z.strictObject({ label: z.union([z.literal("").transform(() => null), labelParam]) });

export async function createInstallLinkAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { label: String(form.get("label") ?? "").trim() };
  return memberAction({ ...asLead(slug), schema: installLinkForm, input }, async (member, { label }) => {
    const { origin } = publicOrigin(await headers());
    await member.app.catalogs.knownLabel({ ...member.team, label });
    const link = await createInstallLink(member.app.db, member.team.id, origin, { userId: member.user.id, keyId: null }, label);
    const what = label ? `Install link for label ${label} created` : "Install link created";
    return { ok: true, message: `${what}. Copy it now: it is not shown again.`, installUrl: link.url, installLinkId: link.id };
  });
}

/** Any member revokes their own connections; a lead anyone's (lib/oauth/connections.ts says which). */
export async function revokeConnectionAction(slug: string, id: number): Promise<ActionResult> {
  return memberAction({ team: slug, page: `/t/${slug}/settings`, role: "viewer", schema: nothing, input: undefined }, async (member) => {
    await revokeConnection(member.app.db, member.team.id, id, { userId: member.user.id, role: member.role });
    return { ok: true, message: "Connection revoked: that client must sign in again." };
  });
}

export async function revokeInstallLinkAction(slug: string, id: InstallLinkId): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await revokeInstallLink(member.app.db, member.team.id, id);
    return { ok: true, message: "Install link revoked." };
  });
}

export async function changeRoleAction(slug: string, email: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return memberAction(
    { ...asLead(slug), schema: changeRoleBody, input: { role: String(form.get("role") ?? "") } },
    async (member, { role }) => {
      const changed = await changeRole(member.app.db, member.team.id, email, role);
      return { ok: true, message: `${changed.email} is now ${changed.role}.` };
    },
  );
}

export async function removeMemberAction(slug: string, email: string): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    const removed = await removeMember(member.app.db, member.team.id, email);
    return { ok: true, message: `Removed ${removed.email}; ${removed.sessionsEnded} session(s) ended.` };
  });
}

/** What the settings page says after an invitation: mailed, or why not and that the lead passes the link on. */
function invitationMessage(email: string, until: string, notMailed: NotMailed | null): string {
  switch (notMailed) {
    case null:
      return `Invitation mailed to ${email}. The link works once, until ${until}; it is below too.`;
    case "no-mail-server":
      return `Invitation for ${email} made: pass the link below on (no mail server is configured). It works once, until ${until}.`;
    case "no-public-url":
      return `Invitation for ${email} made, but not mailed: AUTH_URL is not set, so this server does not know the address people open it at. Pass the link below on. It works once, until ${until}.`;
    case "send-failed":
      return `Invitation for ${email} made, but the mail could not be sent: pass the link below on. It works once, until ${until}.`;
  }
}

export async function inviteAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") };
  return memberAction({ ...asLead(slug), schema: inviteBody, input }, async (member, wanted) => {
    const origin = publicOrigin(await headers());
    const invitation = await invite(member.app, member.team.id, wanted, origin, { userId: member.user.id, keyId: null });
    const message = invitationMessage(wanted.email, invitation.expiresAt.toISOString().slice(0, 10), invitation.notMailed);
    return { ok: true, message, inviteUrl: invitation.url };
  });
}

export async function withdrawInvitationAction(slug: string, id: InvitationId): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await withdrawInvitation(member.app.db, member.team.id, id);
    return { ok: true, message: "Invitation withdrawn." };
  });
}

export async function updateListingSettingsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = {
    cap: String(form.get("cap") ?? ""),
    descMax: String(form.get("descMax") ?? ""),
    loadHint: String(form.get("loadHint") ?? ""),
  };
  return memberAction({ ...asLead(slug), schema: listingSettingsBody, input }, async (member, settings) => {
    await updateTeamSettings(member.app.db, member.app.catalogs, member.team.id, settings);
    return { ok: true, message: "Listing settings saved." };
  });
}

export async function updateTelemetrySettingsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { storePrompts: form.get("storePrompts") === "on", telemetryDays: String(form.get("telemetryDays") ?? "") };
  return memberAction({ ...asLead(slug), schema: telemetrySettingsBody, input }, async (member, settings) => {
    const saved = await updateTeamSettings(member.app.db, member.app.catalogs, member.team.id, settings);
    const days = `${saved.telemetryDays} day${saved.telemetryDays === 1 ? "" : "s"}`;
    return {
      ok: true,
      message: saved.storePrompts
        ? `Telemetry settings saved: prompt texts are kept; raw events for ${days}.`
        : `Telemetry settings saved: prompt texts are not kept; raw events for ${days}.`,
    };
  });
}

export async function autoPromoteAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const autoPromote = form.get("autoPromote") === "on";
  return memberAction({ ...asLead(slug), schema: settingsPatchBody, input: { autoPromote } }, async (member, patch) => {
    await updateTeamSettings(member.app.db, member.app.catalogs, member.team.id, patch);
    return {
      ok: true,
      message: autoPromote
        ? "Auto-promotion is on: an improved amendment goes live at once."
        : "Auto-promotion is off: an improved amendment waits for a lead's approval on its evaluation page.",
    };
  });
}

export async function requireReasonsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const requireReasons = form.get("requireReasons") === "on";
  return memberAction({ ...asLead(slug), schema: settingsPatchBody, input: { requireReasons } }, async (member, patch) => {
    await updateTeamSettings(member.app.db, member.app.catalogs, member.team.id, patch);
    return {
      ok: true,
      message: requireReasons
        ? "Reasons are required: every pin, unpin, label move and rollback must say why."
        : "Reasons are optional: pins, unpins, label moves and rollbacks may say why.",
    };
  });
}

export async function endSessionsAction(slug: string, userId: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    const { email, ended } = await endMemberSessions(member.app.db, member.team.id, userId);
    return { ok: true, message: `Ended ${ended} session${ended === 1 ? "" : "s"} of ${email}.` };
  });
}
