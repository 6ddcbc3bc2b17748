"use server";

import { revalidatePath } from "next/cache";
import { requireMember } from "@/lib/auth/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { checkStorableText } from "@/lib/http/body";
import { createLearned } from "@/lib/learned/write";

export interface CreateResult {
  ok: boolean;
  message: string;
  href?: string;
}

/** A person writes a new learned skill from the overview: a draft, or active straight away. */
export async function createSkillAction(
  slug: string,
  input: { name: string; description: string; body: string; status: "draft" | "active"; reason: string },
): Promise<CreateResult> {
  const member = await requireMember(slug);
  if (!roleAtLeast(member.role, "editor")) return { ok: false, message: "viewers cannot write skills; ask a lead to make you an editor" };
  try {
    checkStorableText(input);
    const actor = { kind: "person" as const, userId: member.user.id, email: member.user.email, role: member.role };
    const created = await createLearned(member.app, member.team.id, actor, { ...input, reason: input.reason.trim() || null });
    revalidatePath(`/t/${slug}`, "layout");
    return { ok: true, message: `Created "${created.name}" as ${created.status} v1.`, href: `/t/${slug}/skills/${created.name}` };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    throw error;
  }
}
