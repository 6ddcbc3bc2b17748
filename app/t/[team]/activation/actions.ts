"use server";

import { revalidatePath } from "next/cache";
import { requireMember } from "@/lib/auth/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { savePromptSet } from "@/lib/activation/prompt-sets";
import { checkStorableText, parseJsonValue } from "@/lib/http/body";
import { cancelRun, startRun } from "@/lib/activation/runs";

export interface ActivationResult {
  ok: boolean;
  message: string;
  href?: string;
}

/** Editors run evals (§1); a refusal comes back as a message. */
async function asEditor(slug: string, work: (member: Awaited<ReturnType<typeof requireMember>>) => Promise<ActivationResult>): Promise<ActivationResult> {
  const member = await requireMember(slug, `/t/${slug}/activation`);
  if (!roleAtLeast(member.role, "editor")) return { ok: false, message: "viewers cannot run evals; ask a lead to make you an editor" };
  try {
    const result = await work(member);
    if (result.ok) revalidatePath(`/t/${slug}/activation`);
    return result;
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    throw error;
  }
}

export async function startRunAction(slug: string, input: { promptSet: string; activator: "lexical" | "model"; trials: number }): Promise<ActivationResult> {
  return asEditor(slug, async (member) => {
    checkStorableText(input);
    const { runId, activator, done } = await startRun(member.app, member.team, { promptSet: { name: input.promptSet }, activator: input.activator, trials: input.trials });
    if (activator !== "model") await done;
    return { ok: true, message: `Run #${runId} started.`, href: `/t/${slug}/activation/runs/${runId}` };
  });
}

export async function cancelRunAction(slug: string, runId: number): Promise<ActivationResult> {
  return asEditor(slug, async (member) => {
    await cancelRun(member.app.db, member.team.id, runId);
    return { ok: true, message: `Run #${runId} cancelled.` };
  });
}

/** Saves a prompt set from its JSON form (the same form the API imports and exports). */
export async function savePromptSetAction(slug: string, json: string): Promise<ActivationResult> {
  return asEditor(slug, async (member) => {
    const set = await savePromptSet(member.app.db, member.team.id, parseJsonValue(Buffer.from(json, "utf8")));
    return { ok: true, message: `Saved prompt set "${set.name}" with ${set.cases.length} case(s).` };
  });
}
