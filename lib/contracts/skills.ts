import { z } from "zod";
import { defineOperation, json, text, type HeaderSpec } from "./operation";
import { isoTime, nameParams, nextCursor, pageQuery, positiveIntText, sessionIdField, versionNumber } from "./fields";
import { skillNameField, skillNameParam } from "../skills/name-schema";

/** The catalog, skill_view, learned skills and their versions (§2, §4, §6). */

export const SOURCES = ["builtin", "file", "learned"] as const;
export const SCOPES = ["builtin", "global", "workspace", "learned"] as const;
export const CATALOG_STATUSES = ["active", "draft", "shadowed", "invalid"] as const;

export const provenanceSchema = z.strictObject({
  source: z.enum(["agent", "user", "imported"]),
  ref: z.string().nullable().describe("the agent session, the person, or the URL it was imported from"),
  reason: z.string().nullable(),
  createdAt: isoTime,
  forkedFrom: z.string().nullable().describe("team/name@version it was forked from"),
});

const servedEntrySchema = z.strictObject({
  name: z.string(),
  source: z.enum(SOURCES),
  scope: z.enum(SCOPES),
  version: z.number().int(),
  description: z.string(),
  status: z.enum(["active", "draft", "shadowed"]),
  folder: z.string().nullable().describe("skills/<name> or global/<name> for a file skill, else null"),
  provenance: provenanceSchema.optional(),
  pinned: z.literal(true).optional().describe("a lead pinned this learned skill: version is the pinned one"),
});

/** A file skill's folder that breaks a hard rule (§2.1): not served as it is; an earlier valid version has its own entry. */
const invalidEntrySchema = z.strictObject({
  name: z.string().describe("the folder's name, which may not be a valid skill name"),
  source: z.literal("file"),
  scope: z.enum(["global", "workspace"]),
  version: z.null(),
  description: z.string().describe("empty: an invalid folder has no description to show"),
  status: z.literal("invalid"),
  folder: z.string().describe("skills/<folder> or global/<folder>"),
  errors: z.array(z.string()).min(1).describe("every hard rule the folder breaks"),
});

export const catalogEntrySchema = z.union([servedEntrySchema, invalidEntrySchema]);

/** `[collision] …`, `[warning] …` and `[invalid] …` lines (§2). */
const diagnostics = z.array(z.string());

export const listSkills = defineOperation({
  operationId: "listSkills",
  method: "GET",
  path: "/api/v1/skills",
  tag: "skills",
  summary: "Every skill the team can see, shadowed and draft ones included, with diagnostics",
  scope: "read",
  query: pageQuery,
  responses: { 200: json(z.strictObject({ skills: z.array(catalogEntrySchema), diagnostics, nextCursor }), "a page of the catalog") },
  errors: [],
});

export const syncFileSchema = z.strictObject({
  path: z.string().describe("<folder>/<file>, e.g. my-skill/SKILL.md or my-skill/scripts/run.sh"),
  content: z.string(),
  encoding: z.enum(["utf8", "base64"]).optional().describe("base64 for binary files; utf8 when omitted"),
  executable: z.boolean().optional().describe("the file's executable bit (a script at 755); false when omitted"),
});

export const syncBody = z.strictObject({ files: z.array(syncFileSchema).max(100_000) });

/** Up to 64 MiB: a team's whole tree, binary files included (§11.1). */
export const SYNC_MAX_BYTES = 64 * 1024 * 1024;

const names = z.array(z.string());

export const syncQuery = z.object({
  strict: z
    .enum(["true", "false"])
    .optional()
    .describe("true (for CI): refuse the whole tree with 400 and every error when any folder is invalid; nothing changes"),
  allowEmpty: z
    .enum(["true", "false"])
    .optional()
    .describe("true: a tree with no skill folder empties the workspace; without it such a tree is refused with 409 EmptyTree"),
  dryRun: z
    .enum(["true", "false"])
    .optional()
    .describe("true: answer what the sync would add, update, remove, refuse and ignore, and write nothing"),
});

export const syncSkills = defineOperation({
  operationId: "syncSkills",
  method: "POST",
  path: "/api/v1/skills/sync",
  tag: "skills",
  summary: "Replace the team's workspace skill tree (JSON files or an application/gzip tar), all or nothing",
  description:
    "A folder that breaks a hard rule is kept as invalid, with every error, and is not served; its last valid version, if any, keeps serving. Files at the root of the tree, hidden entries (.git/, .DS_Store), node_modules and links are ignored and listed.",
  scope: "admin",
  query: syncQuery,
  body: { schema: syncBody, maxBytes: SYNC_MAX_BYTES, alsoAccepts: ["application/gzip"] },
  responses: {
    200: json(
      z.strictObject({
        skills: z.array(catalogEntrySchema),
        diagnostics,
        changes: z.strictObject({ added: names, updated: names, unchanged: names, removed: names }),
        invalid: z.array(z.strictObject({ folder: z.string(), errors: z.array(z.string()).min(1) })),
        ignored: z.array(z.string()).describe("what of the tree is not skill content; an ignored folder ends with /"),
        dryRun: z.boolean().describe("true when nothing was written: changes are what the sync would do, skills the catalog as it is"),
      }),
      "the catalog as the sync left it, what changed, what is invalid and what was ignored",
    ),
  },
  errors: ["BadRequest", "InvalidSkill", "InvalidPath", "InvalidName", "SyncConflict", "EmptyTree"],
});

const viewHeaders: Record<string, HeaderSpec> = {
  ETag: { description: "the SHA-256 of this version's SKILL.md, quoted", type: "string" },
  "X-Skill-Version": { description: "the version served", type: "integer" },
  "X-Skill-Source": { description: "builtin, file, learned or draft", type: "string" },
};

export const viewQuery = z.object({
  version: positiveIntText(1_000_000_000).optional().describe("serve an earlier version of a learned or file skill"),
});

export const viewSkill = defineOperation({
  operationId: "viewSkill",
  method: "GET",
  path: "/api/v1/skills/{name}",
  tag: "skills",
  summary: "skill_view: an annotation line, then the body byte for byte (§4)",
  description: "Every successful view is recorded as usage, with X-Agent-Session as the session. If-None-Match with the ETag answers 304.",
  scope: "read",
  params: nameParams,
  query: viewQuery,
  responses: {
    200: text(
      "`[skill <name> | <source> | v<N>]`, a newline, then the body",
      "[skill systematic-debugging | builtin | v1]\n# Systematic debugging\n",
      viewHeaders,
    ),
    304: { kind: "empty", description: "the client holds this version (If-None-Match)", headers: viewHeaders },
  },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound"],
});

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
  summary: "Create a learned skill: a draft unless an admin key asks for status active (§6.1)",
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
      z.strictObject({ name: z.string(), version: z.number().int(), status: z.literal("active") }),
      "now active and in the listing",
    ),
  },
  errors: ["InvalidName", "SkillNotFound", "NameCollision", "NotADraft"],
});

export const rollbackBody = z.strictObject({
  toVersion: versionNumber.describe("the version whose content becomes the next version"),
  expectedVersion: versionNumber
    .optional()
    .describe("the current version the rollback was decided on; a stale one is refused with VersionConflict"),
});

export const rollbackSkill = defineOperation({
  operationId: "rollbackSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/rollback",
  tag: "skills",
  summary:
    "A new version with the content of toVersion (lead or admin key); nothing is deleted. When that content is already current, nothing changes",
  scope: "write",
  params: nameParams,
  body: { schema: rollbackBody },
  responses: {
    200: json(
      z.union([
        z.strictObject({ name: z.string(), version: z.number().int(), revertOf: z.number().int() }),
        z.strictObject({ name: z.string(), version: z.number().int(), unchanged: z.literal(true) }),
      ]),
      "the new current version, or the current one with unchanged: true when it already has that content",
    ),
  },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound", "VersionConflict", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const pinBody = z.strictObject({ version: versionNumber.describe("the version agents get until unpinned") });

export const pinSkill = defineOperation({
  operationId: "pinSkill",
  method: "POST",
  path: "/api/v1/skills/{name}/pin",
  tag: "skills",
  summary: "Pin the version agents get (lead or admin key): skill_view without ?version and the listing serve it",
  scope: "admin",
  params: nameParams,
  body: { schema: pinBody },
  responses: { 200: json(z.strictObject({ name: z.string(), pinnedVersion: z.number().int() }), "pinned") },
  errors: ["InvalidName", "SkillNotFound", "VersionNotFound", "AlreadyArchived", "BuiltInImmutable", "FileSkillReadOnly"],
});

export const unpinSkill = defineOperation({
  operationId: "unpinSkill",
  method: "DELETE",
  path: "/api/v1/skills/{name}/pin",
  tag: "skills",
  summary: "Lift the pin: agents get the latest version again",
  scope: "admin",
  params: nameParams,
  responses: {
    200: json(z.strictObject({ name: z.string(), pinnedVersion: z.null(), version: z.number().int() }), "the version agents get now"),
  },
  errors: ["InvalidName", "SkillNotFound", "NotPinned", "AlreadyArchived", "BuiltInImmutable", "FileSkillReadOnly"],
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
  summary: "Set the current version's tier; verified needs a hostile review report (§6.5)",
  scope: "write",
  params: nameParams,
  body: { schema: verifyBody },
  responses: {
    200: json(z.strictObject({ name: z.string(), version: z.number().int(), tier: z.enum(TIERS) }), "the tier of that version"),
  },
  errors: ["InvalidName", "SkillNotFound", "ReviewRequired", "VersionConflict", "BuiltInImmutable", "FileSkillReadOnly"],
});

const versionAuthor = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("person"), email: z.string().nullable() }),
  z.strictObject({ kind: z.literal("key"), keyId: z.number().int(), keyName: z.string().nullable(), session: z.string().nullable() }),
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
});

export const listVersions = defineOperation({
  operationId: "listVersions",
  method: "GET",
  path: "/api/v1/skills/{name}/versions",
  tag: "skills",
  summary: "Every version with author, time, reason, parent, revertOf and tier",
  scope: "read",
  params: nameParams,
  responses: { 200: json(z.strictObject({ versions: z.array(versionInfoSchema) }), "oldest first") },
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

export const listSkillFiles = defineOperation({
  operationId: "listSkillFiles",
  method: "GET",
  path: "/api/v1/skills/{name}/files",
  tag: "skills",
  summary: "The skill's supporting files",
  scope: "read",
  params: nameParams,
  responses: {
    200: json(
      z.strictObject({
        name: z.string(),
        files: z.array(
          z.strictObject({
            path: z.string(),
            size: z.number().int().describe("bytes"),
            executable: z.boolean().describe("the file's executable bit, kept through sync"),
          }),
        ),
      }),
      "by path",
    ),
  },
  errors: ["InvalidName", "SkillNotFound"],
});

export const filePathParams = z.object({
  name: skillNameParam,
  path: z.array(z.string()).meta({ description: "the file's path inside the skill folder, e.g. references/forms.md" }),
});

export const getSkillFile = defineOperation({
  operationId: "getSkillFile",
  method: "GET",
  path: "/api/v1/skills/{name}/files/{path}",
  tag: "skills",
  summary: "One supporting file, byte for byte; a path that leaves the folder is a 400",
  scope: "read",
  params: filePathParams,
  responses: {
    200: { kind: "bytes", mediaType: "application/octet-stream", description: "the file, with a content type from its extension" },
  },
  errors: ["InvalidName", "SkillNotFound", "FileNotFound"],
});

export const SKILL_OPERATIONS = [
  listSkills,
  createSkill,
  syncSkills,
  viewSkill,
  updateSkill,
  archiveSkill,
  promoteSkill,
  rollbackSkill,
  pinSkill,
  unpinSkill,
  restoreSkill,
  forkSkill,
  verifySkill,
  listVersions,
  diffVersions,
  listSkillFiles,
  getSkillFile,
];

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
