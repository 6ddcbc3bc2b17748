import { listSkillFiles as listSkillFilesOperation } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { listSkillFiles } from "@/lib/skills/files";

/** GET /api/v1/skills/<name>/files — the skill's supporting files. */
export const GET = route(listSkillFilesOperation, async ({ params: { name } }, { app, auth }) =>
  json({ name, files: await listSkillFiles(app.catalogs, auth.team, name) }),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
