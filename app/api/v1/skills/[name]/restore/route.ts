import { restoreSkill } from "@/lib/contracts/learned";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { restoreLearned } from "@/lib/learned/write";

/** POST /api/v1/skills/<name>/restore — brings back the most recently archived learned skill of this name. */
export const POST = route(restoreSkill, async ({ params }, { app, auth, actor }) =>
  json(await restoreLearned(app, auth.team.id, actor, params.name)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
