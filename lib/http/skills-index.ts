import type { App } from "../contracts/app";
import type { CatalogKey } from "../skills/catalog-cache";
import { contentTypeOf } from "../skills/content-types";
import { readSkillFile } from "../skills/files";
import { loadSkillContent } from "../skills/view";

/**
 * The skills index and its files for installers (docs/mcp.md#skill-installers), as a key (`/.well-known/skills/…`) or an
 * install link (`/i/<token>/.well-known/skills/…`) reads them. Both come from memory once this
 * instance has them (CatalogCache): an installer asks for every file at once.
 */

export async function skillsIndexResponse(app: App, team: CatalogKey): Promise<Response> {
  const index = await app.catalogs.skillsIndex(team);
  return new Response(index.json, { headers: { "content-type": "application/json", etag: index.etag } });
}

export async function skillsIndexFileResponse(app: App, team: CatalogKey, name: string, file: string): Promise<Response> {
  if (file === "SKILL.md") {
    // Not a view: installing a skill is not an agent loading it.
    const content = await loadSkillContent(app.db, app.catalogs, team, name);
    return new Response(content.frontmatter + content.body, {
      headers: { "content-type": contentTypeOf(file), etag: `"${content.sha256}"` },
    });
  }
  const { content, sha256 } = await readSkillFile(app.catalogs, team, name, file);
  return new Response(Buffer.from(content), {
    headers: {
      "content-type": contentTypeOf(file),
      etag: `"${sha256}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
    },
  });
}

/** `index.json`, or `<name>/<path…>` of a file. */
export function indexPath(path: string[]): { index: true } | { index: false; name: string; file: string } {
  if (path.length === 1 && path[0] === "index.json") return { index: true };
  const [name = "", ...rest] = path;
  return { index: false, name, file: rest.join("/") };
}
