import { forkSkill as forkSkillOperation } from "@/lib/contracts/learned";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { forkSkill } from "@/lib/learned/fork";

/** POST /api/v1/skills/<name>/fork — a new learned skill from any visible skill, with `forkedFrom`. */
export const POST = route(forkSkillOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await forkSkill(app, { team: auth.team, name: params.name }, auth.team.id, actor, body), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
