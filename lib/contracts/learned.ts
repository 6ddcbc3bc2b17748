import { z } from "zod";
import { defineOperation, json } from "./operation";
import { nameParams, servedSchema, sessionIdField, versionNumber } from "./fields";
import { skillNameField } from "../skills/name-schema";

/** Learned skills (docs/learned-skills.md): written by agents and people, promoted, archived and restored, forked, verified. */

const reason = z.string().max(2000).describe("why: recorded with the version");
export const WRITABLE_STATUSES = ["draft", "active"] as const;
const writableStatus = z.enum(WRITABLE_STATUSES);

export const createSkillBody = z.strictObject({
  name: skillNameField,
  description: z.string().describe("what it does and when to use it; at most 1024 characters"),
  body: z.string().describe("the Markdown procedure"),
  status: writableStatus.optional().describe("draft (default) or active; active needs an admin key, or an editor"),
  reason: reason.optional(),
  sessionId: sessionIdField.optional(),
});

const created = z.strictObject({ name: z.string(), version: z.literal(1), status: writableStatus });

export const createSkill = defineOperation({
  operationId: "createSkill",
  method: "POST",
  path: "/api/v1/skills",
  tag: "skills",
  summary: "Create a learned skill: a draft unless an admin key asks for status active",
  scope: "write",
  body: { schema: createSkillBody },
  responses: { 201: json(created, "created at v1") },
  errors: ["InvalidSkill", "NameCollision", "SkillExists"],
});

export const updateSkillBody = z.strictObject({
  description: z.string().optional(),
  body: z.string().optional(),
  expectedVersion: versionNumber.optional().describe("the version this change was made against"),
  reason: reason.optional(),
});

export const updateSkill = defineOperation({
  operationId: "updateSkill",
  method: "PUT",
  path: "/api/v1/skills/{name}",
  tag: "skills",
  summary: "A new version of a learned skill, made against expectedVersion",
  description: "Over HTTP, an If-Match header (a version number or that version's ETag) may stand for expectedVersion.",
  scope: "write",
  params: nameParams,
  body: { schema: updateSkillBody },
  responses: {
    200: json(z.strictObject({ name: z.string(), version: z.number().int() }), "the current version (unchanged when nothing changed)"),
  },
  errors: ["InvalidName", "InvalidSkill", "SkillNotFound", "BuiltInImmutable", "FileSkillReadOnly", "VersionConflict"],
});

export const archiveSkill = defineOperation({
  operationId: "archiveSkill",
  method: "DELETE",
  path: "/api/v1/skills/{name}",
  tag: "skills",
  summary: "Archive a learned skill (history kept; a lead can restore it)",
  scope: "write",
  params: nameParams,
  responses: { 200: json(z.strictObject({ name: z.string(), status: z.literal("archived") }), "archived") },
  errors: ["InvalidName", "SkillNotFound", "BuiltInImmutable", "FileSkillReadOnly", "AlreadyArchived"],
});

export const promoteSkill = defineOperation({
  operationId: "promoteSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/promote",
  tag: "skills",
  summary: "Make the draft the active learned skill; collisions are checked again now (editor, lead or admin key)",
  scope: "write",
  params: nameParams,
  responses: {
    200: json(
      z.strictObject({ name: z.string(), version: z.number().int(), status: z.literal("active"), served: servedSchema }),
      "now active and in the listing; served: what agents get",
    ),
  },
  errors: ["InvalidName", "SkillNotFound", "NameCollision", "NotADraft"],
});

export const restoreSkill = defineOperation({
  operationId: "restoreSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/restore",
  tag: "skills",
  summary: "Bring back the most recently archived learned skill of this name (lead or admin key)",
  scope: "write",
  params: nameParams,
  responses: {
    200: json(z.strictObject({ name: z.string(), version: z.number().int(), status: writableStatus }), "restored as it was archived"),
  },
  errors: ["InvalidName", "SkillNotFound", "NameCollision", "SkillExists"],
});

export const forkBody = z.strictObject({ name: skillNameField.describe("the new skill's name"), status: writableStatus.optional() });

export const forkSkill = defineOperation({
  operationId: "forkSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/fork",
  tag: "skills",
  summary: "Fork any visible skill into a new learned skill that keeps forkedFrom",
  scope: "write",
  params: nameParams,
  body: { schema: forkBody },
  responses: { 201: json(created.extend({ forkedFrom: z.string().describe("team/name@version") }), "the fork, at v1") },
  errors: ["InvalidName", "SkillNotFound", "InvalidSkill", "NameCollision", "SkillExists"],
});

export const TIERS = ["unverified", "reviewed", "verified"] as const;

export const verifyBody = z.strictObject({
  tier: z.enum(["reviewed", "verified"]),
  report: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the hostile review: reviewer, attempts, findings, verdict (required for verified)"),
  expectedVersion: versionNumber.optional().describe("the version that was reviewed; refused if the skill moved on"),
});

export const verifySkill = defineOperation({
  operationId: "verifySkill",
  method: "POST",
  path: "/api/v1/skills/{name}/verify",
  tag: "skills",
  summary: "Set the current version's tier; verified needs a hostile review report",
  scope: "write",
  params: nameParams,
  body: { schema: verifyBody },
  responses: {
    200: json(z.strictObject({ name: z.string(), version: z.number().int(), tier: z.enum(TIERS) }), "the tier of that version"),
  },
  errors: ["InvalidName", "SkillNotFound", "ReviewRequired", "VersionConflict", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const LEARNED_OPERATIONS = [createSkill, updateSkill, archiveSkill, promoteSkill, restoreSkill, forkSkill, verifySkill];

/** The dashboard's editor sends every field of an update. */
export const saveSkillForm = updateSkillBody.required({ description: true, body: true, expectedVersion: true, reason: true });
export type SaveSkillForm = z.input<typeof saveSkillForm>;

/** The dashboard's fork form: a person may fork into another team they edit. */
export const forkSkillForm = forkBody.extend({ team: z.string().max(100).describe("the team to fork into") });
export type ForkSkillForm = z.input<typeof forkSkillForm>;

/** The dashboard's verify form: the tier and the report's fields, flat. */
export interface VerifyForm {
  tier: "reviewed" | "verified";
  expectedVersion: number;
  reviewer: string;
  attempts: string;
  findings: string;
  verdict: string;
}
