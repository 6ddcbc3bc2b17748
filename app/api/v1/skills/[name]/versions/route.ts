import { skillVersions } from "@/lib/learned/history";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name>/versions — every version with author, time, reason, parent and tier. */
export const GET = agentRoute<{ name: string }>("read", async ({ params, app, auth }) =>
  json({ versions: await skillVersions(app.db, app.catalogs, auth.team, parseSkillName(params.name)) }),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
