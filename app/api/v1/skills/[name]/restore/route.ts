import { restoreLearned } from "@/lib/learned/write";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/restore — brings back the most recently archived learned skill of this name. */
export const POST = agentRoute<{ name: string }>("write", async ({ params, app, auth, actor }) =>
  json(await restoreLearned(app, auth.team.id, actor, parseSkillName(params.name))),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
