import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { listSkillFiles } from "@/lib/skills/files";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name>/files — the skill's supporting files. */
export const GET = agentRoute<{ name: string }>("read", async ({ params, app, auth }) => {
  const name = parseSkillName(params.name);
  return json({ name, files: await listSkillFiles(app.db, app.catalogs, auth.team, name) });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
