import { verifySkill } from "@/lib/contracts/learned";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { verifyLearned } from "@/lib/learned/verify";

/** POST /api/v1/skills/<name>/verify — the current version's tier; `verified` needs a hostile review report. */
export const POST = route(verifySkill, async ({ params, body }, { app, auth, actor }) => {
  return json(await verifyLearned(app, auth.team.id, actor, params.name, body));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
