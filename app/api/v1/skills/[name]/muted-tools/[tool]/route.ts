import { muteTool as muteToolOperation, unmuteTool as unmuteToolOperation } from "@/lib/contracts/evolution";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { muteTool, unmuteTool } from "@/lib/telemetry/muted-tools";

/** PUT /api/v1/skills/<name>/muted-tools/<tool> — mute a tool for a skill; DELETE unmutes it. */
export const PUT = route(muteToolOperation, async ({ params }, { app, auth, actor }) =>
  json(await muteTool(app.db, app.catalogs, auth.team, actor, params.name, params.tool)),
);

export const DELETE = route(unmuteToolOperation, async ({ params }, { app, auth, actor }) =>
  json(await unmuteTool(app.db, app.catalogs, auth.team, actor, params.name, params.tool)),
);

export const { GET, POST, PATCH, HEAD, OPTIONS } = otherMethods({ PUT, DELETE });
