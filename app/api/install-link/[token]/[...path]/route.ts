import { installLinkFile, installLinkIndex } from "@/lib/contracts/install-links";
import { serveInFront } from "@/lib/http/front-routes";
import { otherMethods } from "@/lib/http/methods";
import { installLinkRoute } from "@/lib/http/route";
import { indexPath, skillsIndexFileResponse, skillsIndexResponse } from "@/lib/http/skills-index";

/**
 * /i/<token>/.well-known/skills/index.json and …/<name>/<file> (rewritten here by proxy.ts):
 * the skills index through an install link, for installers that send no header (`npx skills add`).
 */
const indexRoute = installLinkRoute(installLinkIndex, async (_params, { app, team }) => skillsIndexResponse(app, team));

const fileRoute = installLinkRoute(installLinkFile, async ({ name, file }, { app, team }) =>
  skillsIndexFileResponse(app, team, name, file),
);

export async function GET(req: Request, context: { params: Promise<{ token: string; path: string[] }> }): Promise<Response> {
  const { token, path } = await context.params;
  const target = indexPath(path);
  if (target.index) return indexRoute(req, { params: Promise.resolve({ token }) });
  return fileRoute(req, { params: Promise.resolve({ token, name: target.name, file: target.file }) });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });

serveInFront("install_link", GET);
