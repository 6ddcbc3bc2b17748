import { z } from "zod";
import { parseHarnessViews, recordHarnessViews } from "@/lib/usage/harness-views";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/usage/views — loads that happened outside skill_view: `{skill, sessionId, version?}` or `{views: [...]}`. */
export const POST = agentRoute("write", async ({ req, app, auth }) => {
  const views = parseHarnessViews(await readJson(req, z.unknown()));
  return json(await recordHarnessViews(app, auth.team, views, auth.keyId), 201);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
