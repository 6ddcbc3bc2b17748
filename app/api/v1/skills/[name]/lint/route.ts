import { text } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { lintSkill } from "@/lib/lint/lint-skill";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name>/lint — lint findings for the description of the skill skill_view would serve. */
export const GET = agentRoute<{ name: string }>("read", async ({ params, app, auth }) =>
  text(await lintSkill(app.catalogs, auth.team, parseSkillName(params.name))),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
