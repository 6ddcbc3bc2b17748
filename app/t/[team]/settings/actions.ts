"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { createApiKeyBody, listingSettingsBody } from "@/lib/contracts/settings";
import { updateListingSettings } from "@/lib/teams/settings";
import { endMemberSessions } from "@/lib/teams/members";
import { publicOrigin } from "@/lib/http/origin";
import { createInstallLink, revokeInstallLink, type InstallLinkId } from "@/lib/teams/install-links";

const asLead = (slug: string) => ({ team: slug, page: `/t/${slug}/settings`, role: "lead" as const });
const nothing = z.undefined();

export async function createKeyAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { name: String(form.get("name") ?? ""), scopes: SCOPES.filter((scope) => form.get(`scope-${scope}`) === "on") };
  return memberAction({ ...asLead(slug), schema: createApiKeyBody, input }, async (member, { name, scopes }) => {
    const { key } = await createApiKey(member.app.db, { teamId: member.team.id, name, scopes, createdBy: member.user.id });
    return { ok: true, message: "Key created. Copy it now: it is not shown again.", key };
  });
}

export async function revokeKeyAction(slug: string, keyId: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await revokeApiKey(member.app.db, member.team.id, keyId);
    return { ok: true, message: "Key revoked." };
  });
}

export async function createInstallLinkAction(slug: string, _previous: ActionResult | null): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    const origin = publicOrigin(await headers());
    const link = await createInstallLink(member.app.db, member.team.id, origin, { userId: member.user.id, keyId: null });
    return { ok: true, message: "Install link created. Copy it now: it is not shown again.", installUrl: link.url };
  });
}

export async function revokeInstallLinkAction(slug: string, id: InstallLinkId): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    await revokeInstallLink(member.app.db, member.team.id, id);
    return { ok: true, message: "Install link revoked." };
  });
}

export async function updateListingSettingsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = {
    cap: String(form.get("cap") ?? ""),
    descMax: String(form.get("descMax") ?? ""),
    loadHint: String(form.get("loadHint") ?? ""),
  };
  return memberAction({ ...asLead(slug), schema: listingSettingsBody, input }, async (member, settings) => {
    await updateListingSettings(member.app.db, member.app.catalogs, member.team.id, settings);
    return { ok: true, message: "Listing settings saved." };
  });
}

export async function endSessionsAction(slug: string, userId: number): Promise<ActionResult> {
  return memberAction({ ...asLead(slug), schema: nothing, input: undefined }, async (member) => {
    const { email, ended } = await endMemberSessions(member.app.db, member.team.id, userId);
    return { ok: true, message: `Ended ${ended} session${ended === 1 ? "" : "s"} of ${email}.` };
  });
}
