import { viewSkillRoute } from "../view-handler";
import { archiveSkillRoute, updateSkillRoute } from "../write-handlers";
import { serveInFront } from "@/lib/http/front-routes";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name> — skill_view. */
export const GET = viewSkillRoute;
/** PUT /api/v1/skills/<name> — edit a learned skill. */
export const PUT = updateSkillRoute;
/** DELETE /api/v1/skills/<name> — archive a learned skill. */
export const DELETE = archiveSkillRoute;

export const { POST, PATCH, HEAD, OPTIONS } = otherMethods({ GET, PUT, DELETE });

serveInFront("skill_view", GET);
