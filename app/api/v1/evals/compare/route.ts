import { z } from "zod";
import { idParamSchema } from "@/lib/api/schemas";
import { compareRuns } from "@/lib/activation/compare";
import { readQuery } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

const compareQuery = z.object({ a: idParamSchema, b: idParamSchema });

/** GET /api/v1/evals/compare?a=<run>&b=<run> — two runs side by side, case by case. */
export const GET = agentRoute("read", async ({ req, app, auth }) => {
  const { a, b } = readQuery(req, compareQuery);
  return json(await compareRuns(app.db, auth.team.id, a, b));
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
