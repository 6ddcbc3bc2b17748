"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult } from "@/lib/actions/result";
import { fromTelemetryBody, runBody } from "@/lib/contracts/activation";
import { promptSetFromTelemetry } from "@/lib/activation/from-telemetry";
import { parsePromptSet, savePromptSet } from "@/lib/activation/prompt-sets";
import { parseJsonValue } from "@/lib/http/body";
import { cancelRun, startRun } from "@/lib/activation/runs";

/** Editors run evals (docs/teams-and-keys.md#roles). */
const asEditor = (slug: string) => ({ team: slug, page: `/t/${slug}/activation`, role: "editor" as const });

/**
 * Starts a run and answers at once: the run works in the background (lexical runs too, batch by
 * batch), and the person lands on the run page, which shows its progress. The redirect carries
 * that page in the same response, so nothing renders twice.
 */
export async function startRunAction(
  slug: string,
  input: { promptSet: string; activator: "lexical" | "model"; trials: number },
): Promise<ActionResult> {
  const request = { promptSet: { name: input.promptSet }, activator: input.activator, trials: input.trials };
  const started = await memberAction({ ...asEditor(slug), schema: runBody, input: request }, async (member, run) => {
    const { runId } = await startRun(member.app, member.team, run);
    return { ok: true, message: `Run #${runId} started.`, href: `/t/${slug}/activation/runs/${runId}` };
  });
  if (started.ok && started.href) redirect(started.href);
  return started;
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

/** A prompt set of the prompts people really wrote (docs/telemetry.md#prompt-sets-from-production), as `POST /api/v1/evals/prompt-sets/from-telemetry` makes it. */
export async function promptSetFromTelemetryAction(slug: string, _previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = { name: String(form.get("name") ?? "").trim(), days: Number(form.get("days")) };
  return memberAction({ ...asEditor(slug), schema: fromTelemetryBody, input }, async (member, request) => {
    const { app, team } = member;
    const set = await promptSetFromTelemetry(app.db, await app.catalogs.catalog(team), team.id, request);
    await savePromptSet(app.db, team.id, set);
    const expecting = set.cases.filter((c) => !c.expectNone).length;
    return {
      ok: true,
      message: `Saved prompt set "${set.name}" with ${set.cases.length} case(s) from the last ${request.days} day(s): ${expecting} expecting the skills activated for them, ${set.cases.length - expecting} expecting none.`,
    };
  });
}
