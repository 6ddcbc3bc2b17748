import type { App } from "../root/app";
import type { CatalogKey } from "../skills/catalog-cache";
import { contentTypeOf } from "../skills/content-types";
import { readSkillFile } from "../skills/files";
import { skillsIndex } from "../skills/index-json";
import { loadSkillContent } from "../skills/view";
import { json } from "./respond";

/**
 * The skills index and its files for installers (§12), as a key (`/.well-known/skills/…`) or an
 * install link (`/i/<token>/.well-known/skills/…`) reads them.
 */

export async function skillsIndexResponse(app: App, team: CatalogKey): Promise<Response> {
  return json(await skillsIndex(app.db, app.catalogs, team));
}

export async function skillsIndexFileResponse(app: App, team: CatalogKey, name: string, file: string): Promise<Response> {
  if (file === "SKILL.md") {
    // Not a view: installing a skill is not an agent loading it.
    const content = await loadSkillContent(app.db, app.catalogs, team, name);
    return new Response(content.frontmatter + content.body, {
      headers: { "content-type": contentTypeOf(file), etag: `"${content.sha256}"` },
    });
  }
  const bytes = await readSkillFile(app.db, app.catalogs, team, name, file);
  return new Response(Buffer.from(bytes), {
    headers: { "content-type": contentTypeOf(file), "x-content-type-options": "nosniff", "content-security-policy": "sandbox" },
  });
}

/** `index.json`, or `<name>/<path…>` of a file. */
export function indexPath(path: string[]): { index: true } | { index: false; name: string; file: string } {
  if (path.length === 1 && path[0] === "index.json") return { index: true };
  const [name = "", ...rest] = path;
  return { index: false, name, file: rest.join("/") };
}
