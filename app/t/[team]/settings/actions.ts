"use server";

import { revalidatePath } from "next/cache";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { requireMember } from "@/lib/auth/member";
import { roleAtLeast, SCOPES, type Scope } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { checkStorableText } from "@/lib/http/body";
import { updateListingSettings } from "@/lib/teams/settings";
import { endMemberSessions } from "@/lib/teams/members";

export interface ActionResult {
  ok: boolean;
  message: string;
  /** A new API key, shown once. */
  key?: string;
}

async function requireLead(slug: string) {
  const member = await requireMember(slug, `/t/${slug}/settings`);
  if (!roleAtLeast(member.role, "lead")) throw new Error("only a lead can change team settings");
  return member;
}

async function attempt(slug: string, work: () => Promise<ActionResult>): Promise<ActionResult> {
  try {
    const result = await work();
    revalidatePath(`/t/${slug}`, "layout");
    return result;
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    if (error instanceof Error && error.message.startsWith("only a lead")) return { ok: false, message: error.message };
    throw error;
  }
}

export async function createKeyAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return attempt(slug, async () => {
    const member = await requireLead(slug);
    checkStorableText(Object.fromEntries(form));
    const scopes = SCOPES.filter((scope) => form.get(`scope-${scope}`) === "on") as Scope[];
    if (scopes.length === 0) return { ok: false, message: "choose at least one scope" };
    const { key } = await createApiKey(member.app.db, {
      teamId: member.team.id,
      name: String(form.get("name") ?? ""),
      scopes,
      createdBy: member.user.id,
    });
    return { ok: true, message: "Key created. Copy it now: it is not shown again.", key };
  });
}

export async function revokeKeyAction(slug: string, keyId: number): Promise<ActionResult> {
  return attempt(slug, async () => {
    const member = await requireLead(slug);
    await revokeApiKey(member.app.db, member.team.id, keyId);
    return { ok: true, message: "Key revoked." };
  });
}

export async function updateListingSettingsAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return attempt(slug, async () => {
    const member = await requireLead(slug);
    checkStorableText(Object.fromEntries(form));
    await updateListingSettings(member.app.db, member.app.catalogs, member.team.id, {
      cap: String(form.get("cap") ?? ""),
      descMax: String(form.get("descMax") ?? ""),
      loadHint: String(form.get("loadHint") ?? ""),
    });
    return { ok: true, message: "Listing settings saved." };
  });
}

export async function endSessionsAction(slug: string, userId: number): Promise<ActionResult> {
  return attempt(slug, async () => {
    const member = await requireLead(slug);
    const { email, ended } = await endMemberSessions(member.app.db, member.team.id, userId);
    return { ok: true, message: `Ended ${ended} session${ended === 1 ? "" : "s"} of ${email}.` };
  });
}
