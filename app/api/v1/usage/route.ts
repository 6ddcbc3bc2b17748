import { getUsage } from "@/lib/contracts/activation";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { usageReport } from "@/lib/usage/usage";

/** GET /api/v1/usage — real usage from views: per skill, never-loaded skills, and co-loaded pairs. */
export const GET = route(getUsage, async (_input, { app, auth }) => json(await usageReport(app, auth.team)));

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
