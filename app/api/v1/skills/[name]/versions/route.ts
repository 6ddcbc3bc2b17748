import { listVersions } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { skillVersions } from "@/lib/learned/history";
import { noSkillProduction, versionProduction, withProduction } from "@/lib/usage/production";

/** GET /api/v1/skills/<name>/versions — every version with author, time, reason, parent and tier, and its production figures. */
export const GET = route(listVersions, async ({ params }, { app, auth }) => {
  const [versions, byVersion, noSkill] = await Promise.all([
    skillVersions(app.db, app.catalogs, auth.team, params.name),
    versionProduction(app.db, auth.team.id, params.name),
    noSkillProduction(app.db, auth.team.id),
  ]);
  return json({ versions: withProduction(versions, byVersion, noSkill), noSkill });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
