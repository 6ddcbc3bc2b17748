import { verifySchema } from "@/lib/api/schemas";
import { verifyLearned } from "@/lib/learned/verify";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/verify — the current version's tier; `verified` needs a hostile review report. */
export const POST = agentRoute<{ name: string }>("write", async ({ req, params, app, auth, actor }) => {
  const name = parseSkillName(params.name);
  return json(await verifyLearned(app, auth.team.id, actor, name, await readJson(req, verifySchema)));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
