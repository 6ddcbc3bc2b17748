import { z } from "zod";
import { defineOperation, json } from "./operation";
import { SYNC_MAX_BYTES, syncBody } from "./sync";
import { labelParam } from "../skills/label";

/** Export and import of learned skills as SKILL.md folders (docs/learned-skills.md#import-and-export). */

export const exportLearned = defineOperation({
  operationId: "exportLearned",
  method: "GET",
  path: "/api/v1/learned-skills/export",
  tag: "transfer",
  summary: "The team's learned skills as SKILL.md folders in a .tar.gz, provenance in metadata",
  scope: "read",
  responses: { 200: { kind: "bytes", mediaType: "application/gzip", description: "a tar.gz of <name>/SKILL.md folders" } },
  errors: [],
});

export const exportQuery = z.object({
  label: labelParam
    .optional()
    .describe("serve, for every learned skill, the version with this label, or the default where it has none; not with all"),
  all: z
    .enum(["true", "false"])
    .optional()
    .describe(
      "true: the team's whole workspace for a lead — workspace/<folder> (shadowed ones too) and learned/<name> (drafts too, provenance in metadata) — not what agents get",
    ),
  learned: z.enum(["true", "false"]).optional().describe("true: only the learned skills of what agents get"),
});

export const exportSkills = defineOperation({
  operationId: "exportSkills",
  method: "GET",
  path: "/api/v1/export",
  tag: "transfer",
  summary:
    "What agents get, as SKILL.md folders in a .tar.gz (skillgate pull): exactly the listing's skills at the versions served (pins, ?label=), byte for byte, every file with its mode. ?all=true: the team's whole workspace instead",
  scope: "read",
  query: exportQuery,
  responses: {
    200: {
      kind: "bytes",
      mediaType: "application/gzip",
      description:
        "a tar.gz of <name>/ folders, each skill's SKILL.md as skill_view serves it and its supporting files (scripts at 755); with all=true, workspace/<name>/ and learned/<name>/ folders",
    },
  },
  errors: ["InvalidLabel", "LabelNotFound", "InvalidQuery"],
});

export const importQuery = z.object({
  origin: z.string().min(1).max(500).optional().describe("where the skills come from, recorded as provenance when they carry none"),
});

export const importLearned = defineOperation({
  operationId: "importLearned",
  longWork: true,
  method: "POST",
  path: "/api/v1/learned-skills/import",
  tag: "transfer",
  summary: "Import learned skill folders (JSON files or a .tar.gz), all or nothing",
  scope: "admin",
  query: importQuery,
  body: { schema: syncBody, maxBytes: SYNC_MAX_BYTES, alsoAccepts: ["application/gzip"] },
  responses: {
    201: json(
      z.strictObject({
        imported: z.array(z.strictObject({ name: z.string(), version: z.literal(1), status: z.enum(["draft", "active"]) })),
      }),
      "the skills imported, each at v1",
    ),
  },
  errors: ["BadRequest", "InvalidSkill", "InvalidName", "NameCollision", "SkillExists"],
});

export const TRANSFER_OPERATIONS = [exportLearned, importLearned, exportSkills];
