import { listVersions } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { skillVersions } from "@/lib/learned/history";

/** GET /api/v1/skills/<name>/versions — every version with author, time, reason, parent and tier. */
export const GET = route(listVersions, async ({ params }, { app, auth }) => {
  const versions = await skillVersions(app.db, app.catalogs, auth.team, params.name);
  return json({ versions });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
