import { compareRuns as compareRunsOperation } from "@/lib/contracts/activation";
import { compareRuns } from "@/lib/activation/compare";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/evals/compare?a=<run>&b=<run> — two runs side by side, case by case. */
export const GET = route(compareRunsOperation, async ({ query }, { app, auth }) =>
  json(await compareRuns(app.db, auth.team.id, query.a, query.b)),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
