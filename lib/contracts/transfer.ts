import { z } from "zod";
import { defineOperation, json } from "./operation";
import { SYNC_MAX_BYTES, syncBody } from "./sync";

/** Export and import of learned skills as SKILL.md folders (§6.6). */

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

export const exportSkills = defineOperation({
  operationId: "exportSkills",
  method: "GET",
  path: "/api/v1/export",
  tag: "transfer",
  summary: "The team's workspace and learned skills as SKILL.md folders in a .tar.gz, every file with its mode (skillgate pull)",
  scope: "read",
  responses: {
    200: {
      kind: "bytes",
      mediaType: "application/gzip",
      description: "a tar.gz of <name>/ folders: workspace skills with all their files (scripts at 755), then learned skills",
    },
  },
  errors: [],
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
