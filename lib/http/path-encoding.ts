import { AppError } from "../errors";
import { installerRoute } from "./installer-paths";
import { errorBody } from "./respond";

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

const UNDECODABLE = "the path holds a bad percent-encoding (each %XX must form valid UTF-8); encode the path again";

/** The 400 for such a path: the error envelope for the API (and the installers' index, with a key or a link), a line of text for a page. */
export function undecodablePathResponse(rawPath: string): Response {
  if (rawPath.startsWith("/api/") || installerRoute(rawPath) !== null)
    return Response.json(errorBody(new AppError("InvalidPath", UNDECODABLE)), { status: 400 });
  return new Response(`Bad request: ${UNDECODABLE}.\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}
