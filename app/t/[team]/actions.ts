"use server";

import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { createSkillBody } from "@/lib/contracts/learned";
import { createLearned } from "@/lib/learned/write";

/** A person writes a new learned skill from the overview: a draft, or active straight away. */
export async function createSkillAction(slug: string, input: unknown): Promise<ActionResult> {
  return memberAction(
    { team: slug, page: `/t/${slug}`, role: "editor", schema: createSkillBody, input },
    async (member, { reason, ...skill }, actor) => {
      const created = await createLearned(member.app, member.team.id, actor, { ...skill, reason: reason?.trim() || null });
      return { ok: true, message: `Created "${created.name}" as ${created.status} v1.`, href: `/t/${slug}/skills/${created.name}` };
    },
  );
}
