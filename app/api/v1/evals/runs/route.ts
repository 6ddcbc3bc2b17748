import { z } from "zod";
import { listRuns, runReport, startRun } from "@/lib/activation/runs";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/**
 * POST /api/v1/evals/runs — an activation run (§9). `lexical` and `import` runs answer finished;
 * a `model` run answers at once with its status and runs in the background (poll GET …/runs/<id>).
 */
export const POST = agentRoute("write", async ({ req, app, auth }) => {
  const { runId, activator, done } = await startRun(app, auth.team, await readJson(req, z.unknown(), 8 * 1024 * 1024));
  if (activator !== "model") await done;
  return json(await runReport(app.db, auth.team.id, runId), 201);
});

/** GET /api/v1/evals/runs — the team's runs, newest first. */
export const GET = agentRoute("read", async ({ app, auth }) => json({ runs: await listRuns(app.db, auth.team.id) }));

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
