import { readSkillFile, contentTypeOf } from "@/lib/skills/files";
import { skillsIndex } from "@/lib/skills/index-json";
import { parseSkillName } from "@/lib/skills/name";
import { loadSkillContent } from "@/lib/skills/view";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/**
 * /.well-known/skills/index.json and /.well-known/skills/<name>/<file> (rewritten here): the
 * team's active skills for skill installers. Teams are private, so the API key says whose.
 */
export const GET = agentRoute<{ path: string[] }>("read", async ({ params, app, auth }) => {
  const [first, ...rest] = params.path;
  if (params.path.length === 1 && first === "index.json") return json(await skillsIndex(app.db, app.catalogs, auth.team));
  const name = parseSkillName(first ?? "");
  const file = rest.join("/");
  if (file === "SKILL.md") {
    // Not a view: installing a skill is not an agent loading it.
    const content = await loadSkillContent(app.db, app.catalogs, auth.team, name);
    return new Response(content.frontmatter + content.body, { headers: { "content-type": "text/markdown; charset=utf-8", etag: `"${content.sha256}"` } });
  }
  const bytes = await readSkillFile(app.db, app.catalogs, auth.team, name, file);
  return new Response(Buffer.from(bytes), { headers: { "content-type": contentTypeOf(file), "x-content-type-options": "nosniff", "content-security-policy": "sandbox" } });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
