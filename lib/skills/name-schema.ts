import { z } from "zod";
import { refuseWith } from "../validation";
import { invalidNameMessage } from "./name";

export const SKILL_NAME_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$";

/** A skill name in a URL: a 400 InvalidName that says which rule it breaks. */
export const skillNameParam = z
  .string()
  .superRefine(refuseWith("InvalidName", invalidNameMessage))
  .meta({
    pattern: SKILL_NAME_PATTERN,
    minLength: 1,
    maxLength: 64,
    description: "a skill's name: lowercase letters, digits and single hyphens",
    example: "systematic-debugging",
  })
  .brand<"SkillName">();

/** A skill name inside a body, documented; the write that uses it checks it with the rules of docs/skills-and-listing.md#validation. */
export const skillNameField = z
  .string()
  .meta({ pattern: SKILL_NAME_PATTERN, maxLength: 64, description: "lowercase letters, digits and single hyphens, 1–64 characters" });
