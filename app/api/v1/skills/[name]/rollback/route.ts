import { rollbackSkill } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { rollbackLearned } from "@/lib/learned/write";

/** POST /api/v1/skills/<name>/rollback — a new version with the content of `toVersion` (or nothing when that is the current content); under a pin, the pin moves with it unless `keepPin`. */
export const POST = route(rollbackSkill, async ({ params, body }, { app, auth, actor }) =>
  json(await rollbackLearned(app, auth.team.id, actor, params.name, body)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
