import { z } from "zod";
import { defineOperation, json, type ResponseSpec } from "./operation";
import { nameParams } from "./fields";
import { skillNameParam } from "../skills/name-schema";

/** A skill's supporting files (docs/skills-and-listing.md#supporting-files): the list and each file's bytes. */

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

/**
 * A file's path is one parameter that spans segments. OpenAPI 3.1 has no such parameter: clients
 * generated from the document percent-encode its slashes and validating proxies match one segment
 * per parameter, so the encoded form is the one they can follow; people and installers send the
 * slashes as they are. Both reach the same file (docs/decisions/supporting-files.md).
 */
export const FILE_PATH_ENCODING =
  "its `/` may be sent as-is (scripts/run.py) or percent-encoded (scripts%2Frun.py, as OpenAPI clients send a path parameter): both answer the same file";

export const filePathParams = z.object({
  name: skillNameParam,
  path: z
    .array(z.string())
    .meta({ description: `the file's path inside the skill folder, e.g. references/forms.md; ${FILE_PATH_ENCODING}` }),
});

/** A file the installers' index lists, by its path below the skill's folder. */
export const indexFileParam = z.string().describe(`SKILL.md, or a supporting file's path; ${FILE_PATH_ENCODING}`);

/** What a file route answers: the bytes, with the content type of the file's extension. */
export const fileResponse = (description: string): ResponseSpec => ({ kind: "file", description });

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
    200: fileResponse("the file, byte for byte, with the content type of its extension"),
  },
  errors: ["InvalidName", "SkillNotFound", "FileNotFound"],
});

export const FILE_OPERATIONS = [listSkillFiles, getSkillFile];
