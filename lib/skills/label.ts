import { z } from "zod";
import { refuseWith } from "../validation";
import { skillNameProblem } from "./name";
import { SKILL_NAME_PATTERN } from "./name-schema";

/**
 * A label on versions of learned skills (docs/learned-skills.md#labels): `staging`, `canary`… It follows the rules of
 * a skill name. A reader that asks for one gets, for every skill, the version with that label, or
 * the default (pinned, else latest) where the skill has none.
 */
export type LabelName = string & z.core.$brand<"LabelName">;

/** The refusal of a label that arrives in a URL, a query or a body, or null when it is valid. */
export function invalidLabelMessage(label: string): string | null {
  const problem = skillNameProblem(label, "label");
  return problem ? `invalid label: ${problem}` : null;
}

/** A label in a URL, a query or an MCP argument: a 400 InvalidLabel that says which rule it breaks. */
export const labelParam = z
  .string()
  .superRefine(refuseWith("InvalidLabel", invalidLabelMessage))
  .meta({
    pattern: SKILL_NAME_PATTERN,
    minLength: 1,
    maxLength: 64,
    description: "a label on versions of learned skills (lowercase letters, digits and single hyphens), e.g. staging",
    example: "staging",
  })
  .brand<"LabelName">();
