import { invalidSkill, type AppError } from "../errors";

/** The label a folder of the workspace tree has everywhere: `skills/<folder>`. */
export const workspaceFolderLabel = (name: string) => `skills/${name}`;

/** `[invalid] <folder>: <error>`, one line per error (§2.1). */
export function invalidLines(folder: string, errors: string[]): string[] {
  return errors.map((error) => `[invalid] ${folder}: ${error}`);
}

/** The refusal of a tree that must be valid as a whole (`?strict=true`, an import): every error at once. */
export function invalidTree(lines: string[], folders: number): AppError {
  return invalidSkill(`${folders} folder(s) break hard rules, so nothing changed:\n${lines.join("\n")}`);
}
