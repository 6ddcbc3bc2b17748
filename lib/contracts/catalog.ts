import { z } from "zod";
import { defineOperation, json, text, type HeaderSpec } from "./operation";
import { isoTime, nameParams, nextCursor, pageQuery, positiveIntText, servedSchema } from "./fields";
import { labelParam } from "../skills/label";
import { refuseWith } from "../validation";

/** The catalog and skill_view (docs/skills-and-listing.md): what a team's agents can load, and a skill's body as served. */

export const SOURCES = ["builtin", "file", "learned"] as const;
export const SCOPES = ["builtin", "global", "workspace", "learned"] as const;

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
  served: servedSchema.describe("the version listed, and why: a lead's pin, or the latest"),
});

/** A file skill's folder that breaks a hard rule (docs/skills-and-listing.md#validation): not served as it is; an earlier valid version has its own entry. */
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

/** `[collision] …`, `[warning] …` and `[invalid] …` lines (docs/skills-and-listing.md#sources-and-precedence). */
export const diagnostics = z.array(z.string());

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

const viewHeaders: Record<string, HeaderSpec> = {
  ETag: { description: "the SHA-256 of this version's SKILL.md, quoted", type: "string" },
  "X-Skill-Version": { description: "the version served", type: "integer" },
  "X-Skill-Source": { description: "builtin, file, learned or draft", type: "string" },
  "X-Skill-Served-Why": {
    description: "why this version: label (the ?label= asked for), pinned (a lead's pin), latest (no pin), requested (?version=)",
    type: "string",
  },
  "X-Skill-Label": { description: "the label whose version was served, when X-Skill-Served-Why is label", type: "string", optional: true },
};

export const viewQuery = z
  .object({
    version: positiveIntText(1_000_000_000).optional().describe("serve an earlier version of a learned or file skill"),
    label: labelParam.optional().describe("serve the version with this label, or the default where the skill has none"),
  })
  .superRefine(
    refuseWith("InvalidQuery", (query: { version?: number; label?: string }) =>
      query.version !== undefined && query.label !== undefined ? "give version or label, not both" : null,
    ),
  );

export const viewSkill = defineOperation({
  operationId: "viewSkill",
  servesStale: true,
  method: "GET",
  path: "/api/v1/skills/{name}",
  tag: "skills",
  summary: "skill_view: an annotation line, then the body byte for byte",
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
  errors: ["InvalidName", "InvalidLabel", "LabelNotFound", "InvalidQuery", "SkillNotFound", "VersionNotFound"],
});

export const CATALOG_OPERATIONS = [listSkills, viewSkill];
