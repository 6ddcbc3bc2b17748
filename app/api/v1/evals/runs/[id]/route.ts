import { getRun } from "@/lib/contracts/activation";
import { runReport } from "@/lib/activation/runs";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/evals/runs/<id> — status, progress, results so far, and metrics once finished. */
export const GET = route(getRun, async ({ params }, { app, auth }) => json(await runReport(app.db, auth.team.id, params.id)));

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
