"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { runBody } from "@/lib/contracts/activation";
import { parsePromptSet, savePromptSet } from "@/lib/activation/prompt-sets";
import { parseJsonValue } from "@/lib/http/body";
import { cancelRun, startRun } from "@/lib/activation/runs";

/** Editors run evals (§1). */
const asEditor = (slug: string) => ({ team: slug, page: `/t/${slug}/activation`, role: "editor" as const });

export async function startRunAction(
  slug: string,
  input: { promptSet: string; activator: "lexical" | "model"; trials: number },
): Promise<ActionResult> {
  const request = { promptSet: { name: input.promptSet }, activator: input.activator, trials: input.trials };
  return memberAction({ ...asEditor(slug), schema: runBody, input: request }, async (member, run) => {
    const { runId, activator, done } = await startRun(member.app, member.team, run);
    if (activator !== "model") await done;
    return { ok: true, message: `Run #${runId} started.`, href: `/t/${slug}/activation/runs/${runId}` };
  });
}

export async function cancelRunAction(slug: string, runId: number): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug), schema: z.undefined(), input: undefined }, async (member) => {
    await cancelRun(member.app.db, member.team.id, runId);
    return { ok: true, message: `Run #${runId} cancelled.` };
  });
}

/** Saves a prompt set from its JSON form (the same form the API imports and exports). */
export async function savePromptSetAction(slug: string, json: string): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug), schema: z.string(), input: json }, async (member, text) => {
    const set = await savePromptSet(member.app.db, member.team.id, parsePromptSet(parseJsonValue(Buffer.from(text, "utf8"))));
    return { ok: true, message: `Saved prompt set "${set.name}" with ${set.cases.length} case(s).` };
  });
}
