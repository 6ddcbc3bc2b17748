import { AppError } from "../errors";

export const SUPPORTING_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const SKILL_FOLDER_MAX_BYTES = 20 * 1024 * 1024;

/** Why a supporting file's path (relative to its skill folder) is unsafe or malformed, or null. */
export function filePathProblem(path: string): string | null {
  if (path === "") return "a file path is empty";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return `file path "${path}" must be relative to the skill folder`;
  if (path.includes("\\")) return `file path "${path}" must use "/" between folders, not "\\"`;
  if (/[\u0000-\u001f\u007f]/.test(path)) return `file path "${JSON.stringify(path)}" holds a control character`;
  if (/%(2e|2f|5c|00)/i.test(path)) return `file path "${path}" holds an encoded dot, slash or NUL`;
  const segments = path.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return `file path "${path}" may not hold empty, "." or ".." parts`;
  }
  if (Buffer.byteLength(path) > 1024) return `file path "${path.slice(0, 40)}…" is longer than 1024 bytes`;
  return null;
}

export function parseFilePath(path: string): string {
  const problem = filePathProblem(path);
  if (problem) throw new AppError("InvalidPath", `invalid path: ${problem}`);
  return path;
}
