import { rollbackSchema } from "@/lib/api/schemas";
import { rollbackLearned } from "@/lib/learned/write";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/rollback — a new version with the content of `toVersion`. */
export const POST = agentRoute<{ name: string }>("write", async ({ req, params, app, auth, actor }) => {
  const name = parseSkillName(params.name);
  const { toVersion } = await readJson(req, rollbackSchema);
  return json(await rollbackLearned(app, auth.team.id, actor, name, toVersion));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
