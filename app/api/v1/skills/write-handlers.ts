import { archiveSkill, updateSkill } from "@/lib/contracts/learned";
import { AppError } from "@/lib/errors";
import { readIfMatch } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { archiveLearned, updateLearned } from "@/lib/learned/write";

/** PUT /api/v1/skills/<name> — a new version of a learned skill, against `expectedVersion` or `If-Match`. */
export const updateSkillRoute = route(updateSkill, async ({ params, body }, { req, app, auth, actor }) => {
  const ifMatch = readIfMatch(req);
  if (body.expectedVersion !== undefined && ifMatch && !("version" in ifMatch && ifMatch.version === body.expectedVersion)) {
    throw new AppError("InvalidField", "expectedVersion and If-Match disagree; send one of them");
  }
  const expected = body.expectedVersion !== undefined ? { version: body.expectedVersion } : ifMatch;
  if (!expected)
    throw new AppError("InvalidField", "send expectedVersion (or an If-Match header): the version this change was made against");
  const change = { description: body.description, body: body.body, reason: body.reason, expected };
  return json(await updateLearned(app, auth.team.id, actor, params.name, change));
});

/** DELETE /api/v1/skills/<name> — archives a learned skill; a lead can restore it. */
export const archiveSkillRoute = route(archiveSkill, async ({ params }, { app, auth, actor }) => {
  return json(await archiveLearned(app, auth.team.id, actor, params.name));
});
