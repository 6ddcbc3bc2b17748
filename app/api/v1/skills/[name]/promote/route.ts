import { promoteSkill } from "@/lib/contracts/learned";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { promoteLearned } from "@/lib/learned/write";

/** POST /api/v1/skills/<name>/promote — the draft becomes the active learned skill, if its name is still free. */
export const POST = route(promoteSkill, async ({ params }, { app, auth, actor }) =>
  json(await promoteLearned(app, auth.team.id, actor, params.name)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
