import { updateSkillSchema } from "@/lib/api/schemas";
import { AppError } from "@/lib/errors";
import { archiveLearned, updateLearned } from "@/lib/learned/write";
import { readJson } from "@/lib/http/body";
import { readIfMatch } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";

/** PUT /api/v1/skills/<name> — a new version of a learned skill, against `expectedVersion` or `If-Match`. */
export const updateSkillRoute = agentRoute<{ name: string }>("write", async ({ req, params, app, auth, actor }) => {
  const name = parseSkillName(params.name);
  const body = await readJson(req, updateSkillSchema);
  const ifMatch = readIfMatch(req);
  if (body.expectedVersion !== undefined && ifMatch && !("version" in ifMatch && ifMatch.version === body.expectedVersion)) {
    throw new AppError("InvalidField", "expectedVersion and If-Match disagree; send one of them");
  }
  const expected = body.expectedVersion !== undefined ? { version: body.expectedVersion } : ifMatch;
  if (!expected) throw new AppError("InvalidField", "send expectedVersion (or an If-Match header): the version this change was made against");
  const result = await updateLearned(app, auth.team.id, actor, name, { description: body.description, body: body.body, reason: body.reason, expected });
  return json(result);
});

/** DELETE /api/v1/skills/<name> — archives a learned skill; a lead can restore it. */
export const archiveSkillRoute = agentRoute<{ name: string }>("write", async ({ params, app, auth, actor }) =>
  json(await archiveLearned(app, auth.team.id, actor, parseSkillName(params.name))),
);
