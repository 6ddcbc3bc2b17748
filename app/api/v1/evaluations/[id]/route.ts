import { idParamSchema } from "@/lib/api/schemas";
import { evaluationReport } from "@/lib/evolution/evaluate";
import { parseWith } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/evaluations/<id> — progress while it runs, then the verdict and every case's scores. */
export const GET = agentRoute<{ id: string }>("read", async ({ params, app, auth }) =>
  json(await evaluationReport(app.db, app.catalogs, auth.team, parseWith(idParamSchema, params.id, "InvalidQuery"))),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
