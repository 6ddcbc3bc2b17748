import { getSettings, updateSettings } from "@/lib/contracts/settings";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { teamSettings, updateTeamSettings } from "@/lib/listing/settings";

/** GET /api/v1/settings — the team's settings; PATCH changes any of them (admin). */
export const GET = route(getSettings, async (_input, { app, auth }) => json(await teamSettings(app.db, auth.team.id)));

export const PATCH = route(updateSettings, async ({ body }, { app, auth }) =>
  json(await updateTeamSettings(app.db, app.catalogs, auth.team.id, body)),
);

export const { POST, PUT, DELETE, HEAD, OPTIONS } = otherMethods({ GET, PATCH });
