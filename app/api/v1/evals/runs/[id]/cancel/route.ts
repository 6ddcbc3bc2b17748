import { idParamSchema } from "@/lib/api/schemas";
import { cancelRun } from "@/lib/activation/runs";
import { parseWith } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/evals/runs/<id>/cancel — stops a running run; what it measured so far is kept. */
export const POST = agentRoute<{ id: string }>("write", async ({ params, app, auth }) =>
  json(await cancelRun(app.db, auth.team.id, parseWith(idParamSchema, params.id, "InvalidQuery"))),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
