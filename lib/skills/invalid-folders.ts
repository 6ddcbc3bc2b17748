import { invalidSkill, type AppError } from "../errors";

/**
 * The label of a workspace folder's skill: `skills/<folder>`, as the collision lines (docs/skills-and-listing.md#sources-and-precedence), the
 * annotation of `skill_view` (docs/skills-and-listing.md#skill_view), `GET /api/v1/skills` and the dashboard show it. An `[invalid]`
 * line names the folder as it is in the tree sent instead (`<folder>`): that is where to fix it.
 */
export const workspaceFolderLabel = (name: string) => `skills/${name}`;

/** `[invalid] <folder>: <error>`, one line per error (docs/skills-and-listing.md#sync). */
export function invalidLines(folder: string, errors: string[]): string[] {
  return errors.map((error) => `[invalid] ${folder}: ${error}`);
}

/** The refusal of a tree that must be valid as a whole (`?strict=true`, an import): every error at once. */
export function invalidTree(lines: string[], folders: number): AppError {
  return invalidSkill(`${folders} folder(s) break hard rules, so nothing changed:\n${lines.join("\n")}`);
}
