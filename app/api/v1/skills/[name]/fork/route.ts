import { forkSchema } from "@/lib/api/schemas";
import { forkSkill } from "@/lib/learned/fork";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/fork — a new learned skill from any visible skill, with `forkedFrom`. */
export const POST = agentRoute<{ name: string }>("write", async ({ req, params, app, auth, actor }) => {
  const name = parseSkillName(params.name);
  const input = await readJson(req, forkSchema);
  return json(await forkSkill(app, { team: auth.team, name }, auth.team.id, actor, input), 201);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
