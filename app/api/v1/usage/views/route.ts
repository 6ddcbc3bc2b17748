import { recordViews } from "@/lib/contracts/activation";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { recordHarnessViews } from "@/lib/usage/harness-views";

/** POST /api/v1/usage/views — loads that happened outside skill_view: `{skill, sessionId, version?}` or `{views: [...]}`. */
export const POST = route(recordViews, async ({ body }, { app, auth }) =>
  json(await recordHarnessViews(app, auth.team, body, auth.keyId), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
