import { cancelRun as cancelRunOperation } from "@/lib/contracts/activation";
import { cancelRun } from "@/lib/activation/runs";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/evals/runs/<id>/cancel — stops a running run; what it measured so far is kept. */
export const POST = route(cancelRunOperation, async ({ params }, { app, auth }) => json(await cancelRun(app.db, auth.team.id, params.id)));

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
