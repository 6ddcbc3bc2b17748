import { z } from "zod";
import { defineOperation, json } from "./operation";
import { nameParams } from "./fields";
import { skillNameParam } from "../skills/name-schema";

/** A skill's supporting files (§4): the list and each file's bytes. */

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
  servesStale: true,
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

export const FILE_OPERATIONS = [listSkillFiles, getSkillFile];
