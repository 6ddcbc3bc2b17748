import { z } from "zod";
import { defineOperation, json } from "./operation";
import { fileResponse, indexFileParam } from "./files";
import { idParams, isoTime } from "./fields";
import { skillNameParam } from "../skills/name-schema";
import { skillsIndexSchema } from "./service";
import { labelParam } from "../skills/label";

/** Install links (docs/teams-and-keys.md#install-links): read-only links for installers that cannot send a key. */

const newInstallLink = z.strictObject({
  id: z.number().int(),
  url: z.string().describe("<origin>/i/<token>: give it to `npx skills add`"),
  token: z.string().describe("sgi_…, shown once; stored hashed"),
  label: z.string().nullable().describe("the label whose versions it installs, or null for the default ones"),
});

const installLinkSchema = z.strictObject({
  id: z.number().int(),
  prefix: z.string().describe("the token's first characters, to tell links apart"),
  createdAt: isoTime,
  createdBy: z.string().nullable().describe("the person who made it; null when a key did"),
  revokedAt: isoTime.nullable(),
  label: z.string().nullable().describe("the label whose versions it installs, or null for the default ones"),
});

export const createInstallLink = defineOperation({
  operationId: "createInstallLink",
  method: "POST",
  path: "/api/v1/install-links",
  tag: "integrations",
  summary: "A revocable, read-only install link: `npx skills add <url>` lists and installs the team's skills with no key",
  scope: "admin",
  query: z.object({
    label: labelParam.optional().describe("install, for every skill, the version with this label, or the default where it has none"),
  }),
  responses: { 201: json(newInstallLink, "the link; its token is not shown again") },
  errors: ["InvalidLabel", "LabelNotFound"],
});

export const listInstallLinks = defineOperation({
  operationId: "listInstallLinks",
  method: "GET",
  path: "/api/v1/install-links",
  tag: "integrations",
  summary: "The team's install links, newest first, revoked ones included",
  scope: "admin",
  responses: { 200: json(z.strictObject({ links: z.array(installLinkSchema) }), "newest first") },
  errors: [],
});

export const revokeInstallLink = defineOperation({
  operationId: "revokeInstallLink",
  method: "DELETE",
  path: "/api/v1/install-links/{id}",
  tag: "integrations",
  summary: "Revoke an install link: from now on it answers 401",
  scope: "admin",
  params: idParams,
  responses: { 200: json(z.strictObject({ id: z.number().int(), revokedAt: isoTime }), "revoked") },
  errors: ["InstallLinkNotFound"],
});

const tokenParam = z.string().describe("the install link's token");
const linkErrors = ["Unauthorized", "RateLimited", "InvalidPath", "LabelNotFound"] as const;

export const installLinkIndex = defineOperation({
  operationId: "installLinkIndex",
  servesStale: true,
  method: "GET",
  path: "/i/{token}/.well-known/skills/index.json",
  tag: "integrations",
  summary: "The skills index through an install link: no header, the token in the path is the credential",
  scope: null,
  params: z.object({ token: tokenParam }),
  responses: { 200: json(skillsIndexSchema, "the team's active skills and their files") },
  errors: [...linkErrors],
});

export const installLinkFile = defineOperation({
  operationId: "installLinkFile",
  servesStale: true,
  method: "GET",
  path: "/i/{token}/.well-known/skills/{name}/{file}",
  tag: "integrations",
  summary: "A file the index lists, through an install link",
  scope: null,
  params: z.object({ token: tokenParam, name: skillNameParam, file: indexFileParam }),
  responses: { 200: fileResponse("the file, byte for byte, with the content type of its extension (SKILL.md: text/markdown)") },
  errors: [...linkErrors, "InvalidName", "SkillNotFound", "FileNotFound"],
});

export const INSTALL_LINK_OPERATIONS = [createInstallLink, listInstallLinks, revokeInstallLink, installLinkIndex, installLinkFile];
