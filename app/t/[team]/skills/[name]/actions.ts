"use server";

import { revalidatePath } from "next/cache";
import { requireMember, type Member } from "@/lib/auth/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import { checkStorableText } from "@/lib/http/body";
import type { Actor } from "@/lib/learned/actor";
import { forkSkill } from "@/lib/learned/fork";
import { versionText } from "@/lib/learned/history";
import { findLiveLearned } from "@/lib/learned/store";
import { verifyLearned } from "@/lib/learned/verify";
import { archiveLearned, promoteLearned, restoreLearned, rollbackLearned, updateLearned } from "@/lib/learned/write";
import { membershipOf } from "@/lib/teams/teams";
import { generateAmendment, proposeAmendment } from "@/lib/evolution/amendments";
import { startEvaluation } from "@/lib/evolution/evaluate";
import { promoteAmendment } from "@/lib/evolution/promote";
import { loadSkillContent } from "@/lib/skills/view";

export type ActionResult =
  | { ok: true; message: string; version?: number; href?: string }
  | { ok: false; message: string; conflict?: { version: number; text: string } };

function personOf(member: Member): Actor {
  return { kind: "person", userId: member.user.id, email: member.user.email, role: member.role };
}

/** Runs a write as the signed-in person: editors and leads only; a refusal comes back as a message. */
async function run(slug: string, name: string, work: (member: Member, actor: Actor) => Promise<ActionResult>): Promise<ActionResult> {
  const member = await requireMember(slug, `/t/${slug}/skills/${name}`);
  if (!roleAtLeast(member.role, "editor")) return { ok: false, message: "viewers cannot change skills; ask a lead to make you an editor" };
  try {
    const result = await work(member, personOf(member));
    // A refused save must not refresh the page: the editor would lose the edit it is showing.
    if (result.ok) revalidatePath(`/t/${slug}`, "layout");
    return result;
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message };
    throw error;
  }
}

export interface SaveInput {
  description: string;
  body: string;
  expectedVersion: number;
  reason: string;
}

/** Saves an edit; a stale edit comes back with the version that is there now, to show instead of overwriting it. */
export async function saveSkillAction(slug: string, name: string, input: SaveInput): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    checkStorableText(input);
    try {
      const { version } = await updateLearned(member.app, member.team.id, actor, name, {
        description: input.description,
        body: input.body,
        expected: { version: input.expectedVersion },
        reason: input.reason.trim() || null,
      });
      return { ok: true, message: version === input.expectedVersion ? "No change to save." : `Saved as v${version}.`, version };
    } catch (error) {
      if (!isAppError(error) || error.code !== "VersionConflict") throw error;
      const version = (await findLiveLearned(member.app.db, member.team.id, name))?.currentVersion ?? input.expectedVersion;
      return { ok: false, message: error.message, conflict: { version, text: await versionText(member.app.db, member.app.catalogs, member.team, name, version) } };
    }
  });
}

export async function promoteAction(slug: string, name: string): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    const { version } = await promoteLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: `Promoted: v${version} is now the active learned skill and in the listing.` };
  });
}

export async function rollbackAction(slug: string, name: string, toVersion: number): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    const { version } = await rollbackLearned(member.app, member.team.id, actor, name, toVersion);
    return { ok: true, message: `Rolled back: v${version} has the content of v${toVersion}.`, version };
  });
}

export async function archiveAction(slug: string, name: string): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    await archiveLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: "Archived. Its history is kept; a lead can restore it." };
  });
}

export async function restoreAction(slug: string, name: string): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    const { status, version } = await restoreLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: `Restored as ${status} at v${version}.` };
  });
}

export async function forkAction(slug: string, name: string, input: { name: string; team: string }): Promise<ActionResult> {
  return run(slug, name, async (member) => {
    checkStorableText(input);
    const target = input.team === slug ? { team: member.team, role: member.role } : await membershipOf(member.app.db, member.user.id, input.team);
    if (!target || !roleAtLeast(target.role, "editor")) return { ok: false, message: `you are not an editor of team "${input.team}"` };
    const targetActor: Actor = { kind: "person", userId: member.user.id, email: member.user.email, role: target.role };
    const fork = await forkSkill(member.app, { team: member.team, name }, target.team.id, targetActor, { name: input.name });
    return { ok: true, message: `Forked as draft "${fork.name}" from ${fork.forkedFrom}.`, href: `/t/${target.team.slug}/skills/${fork.name}` };
  });
}

export interface VerifyInput {
  tier: "reviewed" | "verified";
  expectedVersion: number;
  reviewer: string;
  attempts: string;
  findings: string;
  verdict: string;
}

export async function verifyAction(slug: string, name: string, input: VerifyInput): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    checkStorableText(input);
    const { reviewer, attempts, findings, verdict } = input;
    const report = [reviewer, attempts, findings, verdict].some((field) => field.trim() !== "") ? { reviewer, attempts, findings, verdict } : undefined;
    const result = await verifyLearned(member.app, member.team.id, actor, name, { tier: input.tier, report, expectedVersion: input.expectedVersion });
    return { ok: true, message: `v${result.version} is now ${result.tier}.` };
  });
}

export async function proposeAmendmentAction(slug: string, name: string, input: { description: string; body: string; rationale: string }): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    checkStorableText(input);
    const current = await loadSkillContent(member.app.db, member.app.catalogs, member.team, name);
    const { id } = await proposeAmendment(member.app.db, member.app.catalogs, member.team, actor, name, {
      description: input.description === current.skill.description ? undefined : input.description,
      body: input.body === current.body ? undefined : input.body,
      rationale: input.rationale,
    });
    return { ok: true, message: `Proposed as amendment #${id}. Evaluate it to see whether it does better on this skill's history.` };
  });
}

export async function generateAmendmentAction(slug: string, name: string): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    const { id } = await generateAmendment(member.app.db, member.app.catalogs, member.app.model, member.team, actor, name);
    return { ok: true, message: `The model proposed amendment #${id} from the recent failures.` };
  });
}

/** Starts an evaluation and answers at once: the evaluation page follows its progress. */
export async function evaluateAmendmentAction(slug: string, name: string, amendmentId: number): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    const { evaluationId } = await startEvaluation(member.app, member.team, actor, amendmentId);
    return { ok: true, message: `Evaluation #${evaluationId} started.`, href: `/t/${slug}/history/evaluations/${evaluationId}` };
  });
}

export async function promoteAmendmentAction(slug: string, name: string, amendmentId: number, reason: string): Promise<ActionResult> {
  return run(slug, name, async (member, actor) => {
    checkStorableText(reason);
    const result = await promoteAmendment(member.app, member.team, actor, amendmentId, reason.trim() || undefined);
    return { ok: true, message: `${result.override ? "Overridden and promoted" : "Promoted"}: the skill is now at v${result.version}.`, version: result.version };
  });
}
