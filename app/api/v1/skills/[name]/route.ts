import { viewSkillRoute } from "../view-handler";

/** GET /api/v1/skills/<name> — skill_view. */
export const GET = viewSkillRoute;
