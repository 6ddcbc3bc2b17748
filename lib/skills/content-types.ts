/**
 * The content type a supporting file is served with, by its extension: the one map the file
 * routes (REST, the installers' index, install links, MCP's skill_file) answer with and the
 * OpenAPI document lists (lib/contracts/files.ts), so what is documented is what is sent.
 */

/** Every extension with a type of its own, lower case with its dot. */
export const FILE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".sh": "text/x-shellscript; charset=utf-8",
  ".py": "text/x-python; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".json": "application/json",
  ".yaml": "text/yaml; charset=utf-8",
  ".yml": "text/yaml; charset=utf-8",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** What any other file is: opaque bytes. */
export const OPAQUE_CONTENT_TYPE = "application/octet-stream";

/**
 * The extension as the map keys it, as `path.extname` finds it: from the last dot of the last
 * segment, lower case; "" for none (`Makefile`, `.env`). Not node:path itself: the contracts that
 * list these types reach client components.
 */
function extensionOf(filePath: string): string {
  const base = filePath.slice(filePath.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot).toLowerCase() : "";
}

/** A content type from the extension; anything unknown is served as opaque bytes. */
export function contentTypeOf(filePath: string): string {
  return FILE_CONTENT_TYPES[extensionOf(filePath)] ?? OPAQUE_CONTENT_TYPE;
}

/** Each type that can be sent, with the extensions that get it; the opaque type last, for "anything else". */
export function servedContentTypes(): { contentType: string; extensions: string[] }[] {
  const byType = new Map<string, string[]>();
  for (const [extension, contentType] of Object.entries(FILE_CONTENT_TYPES))
    byType.set(contentType, [...(byType.get(contentType) ?? []), extension]);
  return [...byType]
    .map(([contentType, extensions]) => ({ contentType, extensions }))
    .concat({ contentType: OPAQUE_CONTENT_TYPE, extensions: [] });
}
