import { skillsIndex as skillsIndexOperation, skillsIndexFile } from "@/lib/contracts/service";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { indexPath, skillsIndexFileResponse, skillsIndexResponse } from "@/lib/http/skills-index";

/**
 * /.well-known/skills/index.json and /.well-known/skills/<name>/<file> (rewritten here by
 * proxy.ts): the team's active skills for skill installers. Teams are private, so the API key says whose.
 */
const indexRoute = route(skillsIndexOperation, async (_input, { app, auth }) => skillsIndexResponse(app, auth.team));

const fileRoute = route(skillsIndexFile, async ({ params: { name, file } }, { app, auth }) =>
  skillsIndexFileResponse(app, auth.team, name, file),
);

export async function GET(req: Request, context: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const target = indexPath((await context.params).path);
  if (target.index) return indexRoute(req, { params: Promise.resolve({}) });
  return fileRoute(req, { params: Promise.resolve({ name: target.name, file: target.file }) });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
