"use server";

import { z } from "zod";
import { memberAction } from "@/lib/actions/member-action";
import type { ActionResult, Decision } from "@/lib/actions/result";
import { amendmentBody, toolNameParam } from "@/lib/contracts/evolution";
import { forkSkillForm, saveSkillForm, verifyBody, type ForkSkillForm, type SaveSkillForm, type VerifyForm } from "@/lib/contracts/learned";
import { moveLabelBody, pinBody, rollbackBody } from "@/lib/contracts/versions";
import { isAppError, pageMessage } from "@/lib/errors";
import type { Actor } from "@/lib/learned/actor";
import { forkSkill } from "@/lib/learned/fork";
import { moveLabel, removeLabel } from "@/lib/learned/served";
import { labelParam } from "@/lib/skills/label";
import { versionText } from "@/lib/learned/history";
import { findLiveLearned } from "@/lib/learned/store";
import { verifyLearned } from "@/lib/learned/verify";
import { pinLearned, unpinLearned } from "@/lib/learned/served";
import { archiveLearned, promoteLearned, restoreLearned, rollbackLearned, updateLearned, type RolledBack } from "@/lib/learned/write";
import { membershipOf } from "@/lib/teams/teams";
import { generateAmendment, latestContent, proposeAmendment } from "@/lib/evolution/amendments";
import { parseSkillMd } from "@/lib/skills/skill-md";
import { muteTool, unmuteTool } from "@/lib/telemetry/muted-tools";

/** Editors and leads change skills (docs/teams-and-keys.md#roles); each action validates with its REST operation's schema. */
const asEditor = (slug: string, name: string) => ({ team: slug, page: `/t/${slug}/skills/${name}`, role: "editor" as const });
const nothing = { schema: z.undefined(), input: undefined };

/** Saves an edit; a stale edit comes back with the version that is there now, to show instead of overwriting it. */
export async function saveSkillAction(slug: string, name: string, input: SaveSkillForm): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), schema: saveSkillForm, input }, async (member, edit, actor) => {
    try {
      const { version } = await updateLearned(member.app, member.team.id, actor, name, {
        description: edit.description,
        body: edit.body,
        expected: { version: edit.expectedVersion },
        reason: edit.reason.trim() || null,
      });
      return { ok: true, message: version === edit.expectedVersion ? "No change to save." : `Saved as v${version}.`, version };
    } catch (error) {
      if (!isAppError(error) || error.code !== "VersionConflict") throw error;
      const version = (await findLiveLearned(member.app.db, member.team.id, name))?.currentVersion ?? edit.expectedVersion;
      return {
        ok: false,
        message: pageMessage(error),
        conflict: { version, text: await versionText(member.app.db, member.app.catalogs, member.team, name, version) },
      };
    }
  });
}

export async function promoteAction(slug: string, name: string): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), ...nothing }, async (member, _input, actor) => {
    const { version } = await promoteLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: `Promoted: v${version} is now the active learned skill and in the listing.` };
  });
}

/** Rolls back from the version the page showed as the latest: a stale page is told, a second click changes nothing. */
export async function rollbackAction(
  slug: string,
  name: string,
  expectedVersion: number,
  toVersion: number,
  decision: Decision,
): Promise<ActionResult> {
  const input = { toVersion, expectedVersion, keepPin: decision.option, reason: decision.reason };
  return memberAction({ ...asEditor(slug, name), schema: rollbackBody, input }, async (member, body, actor) => {
    const rolled = await rollbackLearned(member.app, member.team.id, actor, name, body);
    return { ok: true, message: rolledBackMessage(rolled, body.toVersion), version: rolled.version };
  });
}

/** What a rollback did, and what agents get now: the content rolled back to, or the pinned version they keep. */
function rolledBackMessage(rolled: RolledBack, toVersion: number): string {
  const made =
    "unchanged" in rolled
      ? `Nothing to roll back: v${rolled.version} already has the content of v${toVersion}`
      : `Rolled back: v${rolled.version} has the content of v${toVersion}`;
  if (rolled.pinMovedFrom !== undefined)
    return `${made}; the pin moved from v${rolled.pinMovedFrom} to v${rolled.version}, so agents get it now.`;
  if (rolled.served.why === "pinned") return `${made}. Agents keep v${rolled.served.version}: it stays pinned.`;
  return "unchanged" in rolled ? `${made}.` : `${made}; agents get it now.`;
}

export async function pinAction(slug: string, name: string, version: number, decision: Decision): Promise<ActionResult> {
  const input = { version, reason: decision.reason };
  return memberAction({ ...asEditor(slug, name), schema: pinBody, input }, async (member, body, actor) => {
    await pinLearned(member.app, member.team.id, actor, name, body.version, body.reason);
    return { ok: true, message: `Pinned: agents get v${body.version} until you unpin it.`, version: body.version };
  });
}

export async function unpinAction(slug: string, name: string, decision: Decision): Promise<ActionResult> {
  const schema = z.strictObject({ reason: z.string().max(2000) });
  return memberAction({ ...asEditor(slug, name), schema, input: { reason: decision.reason } }, async (member, body, actor) => {
    const { version } = await unpinLearned(member.app, member.team.id, actor, name, body.reason);
    return { ok: true, message: `Unpinned: agents get the latest version, v${version}.`, version };
  });
}

const labelForm = moveLabelBody.extend({ label: labelParam });

/** Puts a label on a version (docs/learned-skills.md#labels), from the versions table: a new label or one moved from another version. */
export async function moveLabelAction(
  slug: string,
  name: string,
  label: string,
  version: number,
  decision: Decision,
): Promise<ActionResult> {
  const input = { label, version, reason: decision.reason };
  return memberAction({ ...asEditor(slug, name), schema: labelForm, input }, async (member, body, actor) => {
    await moveLabel(member.app, member.team.id, actor, name, body.label, body.version, body.reason);
    return {
      ok: true,
      message: `Label ${body.label} is on v${body.version}: readers that ask for it get that version.`,
      version: body.version,
    };
  });
}

export async function removeLabelAction(slug: string, name: string, label: string, decision: Decision): Promise<ActionResult> {
  const schema = z.strictObject({ label: labelParam, reason: z.string().max(2000) });
  return memberAction({ ...asEditor(slug, name), schema, input: { label, reason: decision.reason } }, async (member, body, actor) => {
    const { was } = await removeLabel(member.app, member.team.id, actor, name, body.label, body.reason);
    return { ok: true, message: `Label ${body.label} taken off v${was}: readers that ask for it get the default version.` };
  });
}

export async function archiveAction(slug: string, name: string): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), ...nothing }, async (member, _input, actor) => {
    await archiveLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: "Archived. Its history is kept; a lead can restore it." };
  });
}

export async function restoreAction(slug: string, name: string): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), ...nothing }, async (member, _input, actor) => {
    const { status, version } = await restoreLearned(member.app, member.team.id, actor, name);
    return { ok: true, message: `Restored as ${status} at v${version}.` };
  });
}

export async function forkAction(slug: string, name: string, input: ForkSkillForm): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), schema: forkSkillForm, input }, async (member, { team, ...fork }) => {
    const target = team === slug ? { team: member.team, role: member.role } : await membershipOf(member.app.db, member.user.id, team);
    if (!target || target.role === "viewer") return { ok: false, message: `you are not an editor of team "${team}"` };
    const targetActor: Actor = { kind: "person", userId: member.user.id, email: member.user.email, role: target.role };
    const forked = await forkSkill(member.app, { team: member.team, name }, target.team.id, targetActor, fork);
    return {
      ok: true,
      message: `Forked as draft "${forked.name}" from ${forked.forkedFrom}.`,
      href: `/t/${target.team.slug}/skills/${forked.name}`,
    };
  });
}

/** The verify form's flat fields, as the API's body: a report only when any of it is filled in. */
export async function verifyAction(slug: string, name: string, input: VerifyForm): Promise<ActionResult> {
  const { tier, expectedVersion, ...report } = input;
  const body = { tier, expectedVersion, ...(Object.values(report).some((field) => field.trim() !== "") && { report }) };
  return memberAction({ ...asEditor(slug, name), schema: verifyBody, input: body }, async (member, verify, actor) => {
    const result = await verifyLearned(member.app, member.team.id, actor, name, verify);
    return { ok: true, message: `v${result.version} is now ${result.tier}.` };
  });
}

export async function proposeAmendmentAction(slug: string, name: string, input: z.input<typeof amendmentBody>): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), schema: amendmentBody, input }, async (member, amendment, actor) => {
    // Against the latest version, which the editor shows (under a pin agents get an older one).
    const current = await latestContent(member.app.db, member.app.catalogs, member.team, name);
    const { fields } = parseSkillMd(current.frontmatter + current.body);
    const { id } = await proposeAmendment(member.app.db, member.app.catalogs, member.team, actor, name, {
      description: amendment.description === (fields as { description: string }).description ? undefined : amendment.description,
      body: amendment.body === current.body ? undefined : amendment.body,
      rationale: amendment.rationale,
    });
    return { ok: true, message: `Proposed as amendment #${id}. Evaluate it to see whether it does better on this skill's history.` };
  });
}

export async function generateAmendmentAction(slug: string, name: string): Promise<ActionResult> {
  return memberAction({ ...asEditor(slug, name), ...nothing }, async (member, _input, actor) => {
    const { id } = await generateAmendment(member.app.db, member.app.catalogs, member.app.model, member.team, actor, name);
    return { ok: true, message: `The model proposed amendment #${id} from the recent failures.` };
  });
}

/** Leads mute a tool for a skill: what it does is their call, as pins are (docs/decisions/production-attribution.md). */
const asLead = (slug: string, name: string) => ({ team: slug, page: `/t/${slug}/skills/${name}`, role: "lead" as const });

export async function muteToolAction(slug: string, name: string, tool: string): Promise<ActionResult> {
  return memberAction({ ...asLead(slug, name), schema: toolNameParam, input: tool }, async (member, tool, actor) => {
    await muteTool(member.app.db, member.app.catalogs, member.team, actor, name, tool);
    return {
      ok: true,
      message: `Muted ${tool}: its failures while ${name} is loaded make no observation of ${name}. The figures still count them.`,
    };
  });
}

export async function unmuteToolAction(slug: string, name: string, tool: string): Promise<ActionResult> {
  return memberAction({ ...asLead(slug, name), schema: toolNameParam, input: tool }, async (member, tool, actor) => {
    await unmuteTool(member.app.db, member.app.catalogs, member.team, actor, name, tool);
    return { ok: true, message: `Unmuted ${tool}: its failures while ${name} is loaded make observations of ${name} again.` };
  });
}
