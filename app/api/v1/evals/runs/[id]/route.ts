import { idParamSchema } from "@/lib/api/schemas";
import { runReport } from "@/lib/activation/runs";
import { parseWith } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/evals/runs/<id> — status, progress, results so far, and metrics once finished. */
export const GET = agentRoute<{ id: string }>("read", async ({ params, app, auth }) =>
  json(await runReport(app.db, auth.team.id, parseWith(idParamSchema, params.id, "InvalidQuery"))),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
