import { getEvaluation } from "@/lib/contracts/evolution";
import { evaluationReport } from "@/lib/evolution/evaluate";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/evaluations/<id> — progress while it runs, then the verdict and every case's scores. */
export const GET = route(getEvaluation, async ({ params }, { app, auth }) =>
  json(await evaluationReport(app.db, app.catalogs, auth.team, params.id)),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
