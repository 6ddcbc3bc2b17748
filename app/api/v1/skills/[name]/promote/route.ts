import { promoteLearned } from "@/lib/learned/write";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/promote — the draft becomes the active learned skill, if its name is still free. */
export const POST = agentRoute<{ name: string }>("write", async ({ params, app, auth, actor }) =>
  json(await promoteLearned(app, auth.team.id, actor, parseSkillName(params.name))),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
