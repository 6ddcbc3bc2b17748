/**
 * Whether every segment of a raw URL path percent-decodes to valid UTF-8. Next cannot route a
 * path that does not (`/api/v1/skills/%ff`, the overlong `%c0%ae`) and answers a bare 500, so the
 * proxy refuses such paths first.
 */
export function isDecodablePath(rawPath: string): boolean {
  if (!rawPath.includes("%")) return true;
  try {
    for (const segment of rawPath.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export const UNDECODABLE_PATH_MESSAGE = "the path holds a bad percent-encoding (each %XX must form valid UTF-8); encode the path again";
