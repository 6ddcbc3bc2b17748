import { listMutedTools as listMutedToolsOperation } from "@/lib/contracts/evolution";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { listMutedTools } from "@/lib/telemetry/muted-tools";

/** GET /api/v1/skills/<name>/muted-tools — tools whose failures make no observation of the skill. */
export const GET = route(listMutedToolsOperation, async ({ params }, { app, auth }) =>
  json(await listMutedTools(app.db, app.catalogs, auth.team, params.name)),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
