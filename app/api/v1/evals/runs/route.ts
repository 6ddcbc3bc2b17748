import { listRuns as listRunsOperation, startRun as startRunOperation } from "@/lib/contracts/activation";
import { listRuns, runReport, startRun } from "@/lib/activation/runs";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/**
 * POST /api/v1/evals/runs — an activation run (docs/evaluation-and-activation.md#activation-evals). `lexical` and `import` runs answer finished;
 * a `model` run answers at once with its status and runs in the background (poll GET …/runs/<id>).
 */
export const POST = route(startRunOperation, async ({ body }, { app, auth }) => {
  const { runId, activator, done } = await startRun(app, auth.team, body);
  if (activator !== "model") await done;
  return json(await runReport(app.db, auth.team.id, runId), 201);
});

/** GET /api/v1/evals/runs — the team's runs, newest first. */
export const GET = route(listRunsOperation, async (_input, { app, auth }) => json({ runs: await listRuns(app.db, auth.team.id) }));

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
