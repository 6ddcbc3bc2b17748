import { lintSkill as lintSkillOperation } from "@/lib/contracts/lint";
import { otherMethods } from "@/lib/http/methods";
import { text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { lintSkill } from "@/lib/lint/lint-skill";

/** GET /api/v1/skills/<name>/lint — lint findings for the description of the skill skill_view would serve. */
export const GET = route(lintSkillOperation, async ({ params }, { app, auth }) =>
  text(await lintSkill(app.catalogs, auth.team, params.name)),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
