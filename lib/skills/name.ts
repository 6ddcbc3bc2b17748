import type { z } from "zod";
import { AppError } from "../errors";

/** A validated skill name: 1–64 of [a-z0-9-], no leading, trailing or doubled hyphen. Zod's brand, so a contract's schema can produce it. */
export type SkillName = string & z.core.$brand<"SkillName">;

/** Why `name` is not a valid skill name, or null when it is. `what` names it in the message: labels follow the same rules (docs/learned-skills.md#labels). */
export function skillNameProblem(name: string, what = "name"): string | null {
  const length = [...name].length;
  if (length < 1 || length > 64) return `${what} "${name}" must be 1–64 characters long (it has ${length})`;
  if (!/^[a-z0-9-]+$/.test(name)) return `${what} "${name}" may hold only lowercase letters, digits and hyphens`;
  if (name.startsWith("-") || name.endsWith("-")) return `${what} "${name}" may not start or end with a hyphen`;
  if (name.includes("--")) return `${what} "${name}" may not hold two hyphens in a row`;
  return null;
}

export function isSkillName(name: string): name is SkillName {
  return skillNameProblem(name) === null;
}

/** The refusal of a name that arrives in a URL, or null when it is valid. */
export function invalidNameMessage(name: string): string | null {
  const problem = skillNameProblem(name);
  return problem ? `invalid skill name: ${problem}` : null;
}

/** For names that arrive in a URL or a request body: a 400 that says what to fix. */
export function parseSkillName(name: string): SkillName {
  const message = invalidNameMessage(name);
  if (message) throw new AppError("InvalidName", message);
  return name as SkillName;
}
