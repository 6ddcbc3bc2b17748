import { usageReport } from "@/lib/usage/usage";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/usage — real usage from views: per skill, never-loaded skills, and co-loaded pairs. */
export const GET = agentRoute("read", async ({ app, auth }) => json(await usageReport(app.db, app.catalogs, auth.team)));

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
