import { pinSkill, unpinSkill } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { pinLearned, unpinLearned } from "@/lib/learned/served";

/** POST /api/v1/skills/<name>/pin — pin the version agents get; DELETE lifts the pin. */
export const POST = route(pinSkill, async ({ params, body }, { app, auth, actor }) =>
  json(await pinLearned(app, auth.team.id, actor, params.name, body.version, body.reason)),
);

export const DELETE = route(unpinSkill, async ({ params, body }, { app, auth, actor }) =>
  json(await unpinLearned(app, auth.team.id, actor, params.name, body.reason)),
);

export const { GET, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ POST, DELETE });
