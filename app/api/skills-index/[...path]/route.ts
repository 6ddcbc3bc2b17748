import { skillsIndex as skillsIndexOperation, skillsIndexFile } from "@/lib/contracts/service";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { contentTypeOf, readSkillFile } from "@/lib/skills/files";
import { skillsIndex } from "@/lib/skills/index-json";
import { loadSkillContent } from "@/lib/skills/view";

/**
 * /.well-known/skills/index.json and /.well-known/skills/<name>/<file> (rewritten here by
 * next.config.ts): the team's active skills for skill installers. Teams are private, so the API key says whose.
 */
const indexRoute = route(skillsIndexOperation, async (_input, { app, auth }) => json(await skillsIndex(app.db, app.catalogs, auth.team)));

const fileRoute = route(skillsIndexFile, async ({ params: { name, file } }, { app, auth }) => {
  if (file === "SKILL.md") {
    // Not a view: installing a skill is not an agent loading it.
    const content = await loadSkillContent(app.db, app.catalogs, auth.team, name);
    return new Response(content.frontmatter + content.body, {
      headers: { "content-type": "text/markdown; charset=utf-8", etag: `"${content.sha256}"` },
    });
  }
  const bytes = await readSkillFile(app.db, app.catalogs, auth.team, name, file);
  return new Response(Buffer.from(bytes), {
    headers: { "content-type": contentTypeOf(file), "x-content-type-options": "nosniff", "content-security-policy": "sandbox" },
  });
});

export async function GET(req: Request, context: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await context.params;
  if (path.length === 1 && path[0] === "index.json") return indexRoute(req, { params: Promise.resolve({}) });
  const [name = "", ...rest] = path;
  return fileRoute(req, { params: Promise.resolve({ name, file: rest.join("/") }) });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
