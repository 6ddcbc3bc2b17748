import { z } from "zod";
import { defineOperation, json, text } from "./operation";
import { comparisonSchema, isoTime, nameParams, positiveIntText, productionSchema, servedSchema, versionNumber } from "./fields";
import { TIERS } from "./learned";
import { labelParam } from "../skills/label";
import { skillNameParam } from "../skills/name-schema";

/** A skill's versions (docs/learned-skills.md): the history, diffs, rollback and pins. */

/** A lead's reason for a decision that changes what agents get (docs/learned-skills.md#reasons); required when the team's `requireReasons` is on. */
const decisionReasonField = z
  .string()
  .max(2000)
  .optional()
  .describe("why; shown in the history and on the version. Required when the team's requireReasons setting is on");

/** An optional body holding only a reason: what a DELETE that changes what agents get takes. */
const reasonOnlyBody = { schema: z.strictObject({ reason: decisionReasonField }), optional: true as const };

const rolledBackPin = {
  served: servedSchema,
  pinMovedFrom: z.number().int().optional().describe("set when the rollback moved a lead's pin: the version it was on"),
};

export const rollbackBody = z.strictObject({
  toVersion: versionNumber.describe("the version whose content becomes the next version"),
  expectedVersion: versionNumber
    .optional()
    .describe("the current version the rollback was decided on; a stale one is refused with VersionConflict"),
  keepPin: z
    .boolean()
    .optional()
    .describe(
      "under a pin: true leaves the pin where it is, so agents keep the pinned version; by default the pin moves to the new version",
    ),
  reason: decisionReasonField,
});

export const rollbackSkill = defineOperation({
  operationId: "rollbackSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/rollback",
  tag: "skills",
  summary:
    "A new version with the content of toVersion (lead or admin key); nothing is deleted. When that content is already current, no version is made. Under a pin, the pin moves to the version with that content unless keepPin",
  scope: "write",
  params: nameParams,
  body: { schema: rollbackBody },
  responses: {
    200: json(
      z.union([
        z.strictObject({ name: z.string(), version: z.number().int(), revertOf: z.number().int(), ...rolledBackPin }),
        z.strictObject({ name: z.string(), version: z.number().int(), unchanged: z.literal(true), ...rolledBackPin }),
      ]),
      "the new current version, or the current one with unchanged: true when it already has that content; what agents get now",
    ),
  },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound", "VersionConflict", "ReasonRequired", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const pinBody = z.strictObject({
  version: versionNumber.describe("the version agents get until unpinned"),
  reason: decisionReasonField,
});

export const pinSkill = defineOperation({
  operationId: "pinSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/pin",
  tag: "skills",
  summary: "Pin the version agents get (lead or admin key): skill_view without ?version and the listing serve it",
  scope: "admin",
  params: nameParams,
  body: { schema: pinBody },
  responses: { 200: json(z.strictObject({ name: z.string(), pinnedVersion: z.number().int(), served: servedSchema }), "pinned") },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound", "ReasonRequired", "AlreadyArchived", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const unpinSkill = defineOperation({
  operationId: "unpinSkill",
  method: "DELETE",
  path: "/api/v1/skills/{name}/pin",
  tag: "skills",
  summary: "Lift the pin: agents get the latest version again",
  scope: "admin",
  params: nameParams,
  body: reasonOnlyBody,
  responses: {
    200: json(
      z.strictObject({ name: z.string(), pinnedVersion: z.null(), version: z.number().int(), served: servedSchema }),
      "the version agents get now",
    ),
  },
  errors: ["InvalidName", "SkillNotFound", "NotPinned", "ReasonRequired", "AlreadyArchived", "BuiltInImmutable", "FileSkillReadOnly"],
});

const labelParams = z.object({ name: skillNameParam, label: labelParam });
const labelErrors = [
  "InvalidName",
  "InvalidLabel",
  "SkillNotFound",
  "ReasonRequired",
  "AlreadyArchived",
  "BuiltInImmutable",
  "FileSkillReadOnly",
] as const;

export const moveLabelBody = z.strictObject({
  version: versionNumber.describe("the version the label marks from now on"),
  reason: decisionReasonField,
});

export const moveLabel = defineOperation({
  operationId: "moveLabel",
  method: "PUT",
  path: "/api/v1/skills/{name}/labels/{label}",
  tag: "skills",
  summary:
    "Put a named label (staging, canary…) on a version of a learned skill (lead or admin key): readers that ask for ?label= get that version. A label is on at most one version; moving it is a history event",
  scope: "admin",
  params: labelParams,
  body: { schema: moveLabelBody },
  responses: {
    200: json(
      z.strictObject({ name: z.string(), label: z.string(), version: z.number().int(), served: servedSchema }),
      "the label marks this version; served: what readers that ask for no label get",
    ),
  },
  errors: [...labelErrors, "VersionNotFound"],
});

export const removeLabel = defineOperation({
  operationId: "removeLabel",
  method: "DELETE",
  path: "/api/v1/skills/{name}/labels/{label}",
  tag: "skills",
  summary: "Take a label off a learned skill: readers that ask for it get the default version (pinned, else latest)",
  scope: "admin",
  params: labelParams,
  body: reasonOnlyBody,
  responses: {
    200: json(
      z.strictObject({
        name: z.string(),
        label: z.string(),
        version: z.null(),
        was: z.number().int().describe("the version it marked"),
        served: servedSchema,
      }),
      "removed; served: what readers that ask for no label get",
    ),
  },
  errors: [...labelErrors, "LabelNotFound"],
});

const versionAuthor = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("person"), email: z.string().nullable() }),
  z.strictObject({ kind: z.literal("key"), keyId: z.number().int(), keyName: z.string().nullable(), session: z.string().nullable() }),
  z
    .strictObject({ kind: z.literal("connection"), keyId: z.number().int(), name: z.string().nullable(), session: z.string().nullable() })
    .describe("a member's MCP client signed in with OAuth; name is 'member@example.com via Client'"),
  z.strictObject({ kind: z.literal("sync") }),
  z.strictObject({ kind: z.literal("deployment") }),
  z.strictObject({ kind: z.literal("system") }),
]);

export const versionInfoSchema = z.strictObject({
  version: z.number().int(),
  createdAt: isoTime.nullable(),
  author: versionAuthor,
  reason: z.string().nullable(),
  parentVersion: z.number().int().nullable(),
  revertOf: z.number().int().nullable(),
  tier: z.enum(TIERS),
  sha256: z.string(),
  evaluationId: z.number().int().nullable().describe("the evaluation that justified it, when an amendment made it"),
  amendmentId: z.number().int().nullable().describe("the amendment that evaluation judged"),
  labels: z.array(z.string()).describe("the labels on this version, by name; empty for built-in and file skills"),
});

export const listVersions = defineOperation({
  operationId: "listVersions",
  method: "GET",
  path: "/api/v1/skills/{name}/versions",
  tag: "skills",
  summary: "Every version with author, time, reason, parent, revertOf and tier",
  scope: "read",
  params: nameParams,
  responses: {
    200: json(
      z.strictObject({
        versions: z.array(
          versionInfoSchema.extend({
            production: productionSchema.describe("while this version was loaded, everything the rollup holds"),
            failingTools: z
              .array(z.strictObject({ tool: z.string(), failures: z.number().int(), error: z.string().nullable() }))
              .describe("the tools that failed while it was loaded, most failures first; error only when the team stores prompts"),
            failureRateVsPrevious: comparisonSchema.nullable().describe("against the version before it; null for the first"),
            failureRateVsNoSkill: comparisonSchema.describe("against prompts with no skill loaded"),
          }),
        ),
        noSkill: productionSchema.describe("prompts in which no skill was loaded: the baseline"),
      }),
      "oldest first",
    ),
  },
  errors: ["InvalidName", "SkillNotFound"],
});

export const diffQuery = z.object({
  from: positiveIntText(1_000_000_000).describe("version A"),
  to: positiveIntText(1_000_000_000).describe("version B"),
});

export const diffVersions = defineOperation({
  operationId: "diffVersions",
  method: "GET",
  path: "/api/v1/skills/{name}/diff",
  tag: "skills",
  summary: "Unified diff of the SKILL.md texts of two versions",
  scope: "read",
  params: nameParams,
  query: diffQuery,
  responses: { 200: text("a unified diff", "--- v1\n+++ v2\n@@ -1,3 +1,3 @@\n") },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound"],
});

export const VERSION_OPERATIONS = [listVersions, diffVersions, rollbackSkill, pinSkill, unpinSkill, moveLabel, removeLabel];
