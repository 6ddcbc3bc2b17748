import { z } from "zod";
import { deletePromptSet, getPromptSet, savePromptSet } from "@/lib/activation/prompt-sets";
import { AppError } from "@/lib/errors";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/evals/prompt-sets/<name> — one prompt set, in the JSON form it is imported in. */
export const GET = agentRoute<{ name: string }>("read", async ({ params, app, auth }) => json(await getPromptSet(app.db, auth.team.id, params.name)));

/** PUT /api/v1/evals/prompt-sets/<name> — replace its cases. */
export const PUT = agentRoute<{ name: string }>("write", async ({ req, params, app, auth }) => {
  const body = (await readJson(req, z.record(z.string(), z.unknown()), 8 * 1024 * 1024)) as Record<string, unknown>;
  if (body.name !== undefined && body.name !== params.name) throw new AppError("InvalidField", `the body names "${String(body.name)}", the URL "${params.name}"`);
  return json(await savePromptSet(app.db, auth.team.id, { ...body, name: params.name }));
});

/** DELETE /api/v1/evals/prompt-sets/<name> — runs made with it keep their own copy of the cases. */
export const DELETE = agentRoute<{ name: string }>("write", async ({ params, app, auth }) => json(await deletePromptSet(app.db, auth.team.id, params.name)));

export const { POST, PATCH, HEAD, OPTIONS } = otherMethods({ GET, PUT, DELETE });
