import { z } from "zod";
import { defineOperation, json } from "./operation";
import { catalogEntrySchema, diagnostics } from "./catalog";

/** Workspace sync (docs/skills-and-listing.md#sync, docs/api.md#shapes): a team's whole tree of skill folders, as JSON or a gzip tar. */

export const syncFileSchema = z.strictObject({
  path: z.string().describe("<folder>/<file>, e.g. my-skill/SKILL.md or my-skill/scripts/run.sh"),
  content: z.string(),
  encoding: z.enum(["utf8", "base64"]).optional().describe("base64 for binary files; utf8 when omitted"),
  executable: z.boolean().optional().describe("the file's executable bit (a script at 755); false when omitted"),
});

export const syncBody = z.strictObject({ files: z.array(syncFileSchema).max(100_000) });

/** Up to 64 MiB: a team's whole tree, binary files included (docs/api.md#shapes). */
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
    .describe(
      "true: answer the body the sync would answer (the catalog the tree would make, its diagnostics, changes, invalid and ignored), and write nothing",
    ),
});

export const syncSkills = defineOperation({
  operationId: "syncSkills",
  longWork: true,
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
        invalid: z
          .array(
            z.strictObject({
              folder: z.string().describe("the folder as it is named in the tree sent"),
              errors: z.array(z.string()).min(1),
            }),
          )
          .describe("folders that break a hard rule, each with every error"),
        ignored: z.array(z.string()).describe("what of the tree is not skill content; an ignored folder ends with /"),
        dryRun: z
          .boolean()
          .describe(
            "true when nothing was written: skills, diagnostics and changes are what the sync would answer, the catalog the tree would make",
          ),
      }),
      "the catalog as the sync left it, what changed, what is invalid and what was ignored",
    ),
  },
  errors: ["BadRequest", "InvalidSkill", "InvalidPath", "InvalidName", "SyncConflict", "EmptyTree"],
});

export const SYNC_OPERATIONS = [syncSkills];
