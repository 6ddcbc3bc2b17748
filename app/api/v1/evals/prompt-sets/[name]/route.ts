import {
  deletePromptSet as deletePromptSetOperation,
  getPromptSet as getPromptSetOperation,
  replacePromptSet,
} from "@/lib/contracts/activation";
import { deletePromptSet, getPromptSet, savePromptSet } from "@/lib/activation/prompt-sets";
import { AppError } from "@/lib/errors";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/evals/prompt-sets/<name> — one prompt set, in the JSON form it is imported in. */
export const GET = route(getPromptSetOperation, async ({ params }, { app, auth }) =>
  json(await getPromptSet(app.db, auth.team.id, params.name)),
);

/** PUT /api/v1/evals/prompt-sets/<name> — replace its cases. */
export const PUT = route(replacePromptSet, async ({ params, body }, { app, auth }) => {
  if (body.name !== undefined && body.name !== params.name)
    throw new AppError("InvalidField", `the body names "${body.name}", the URL "${params.name}"`);
  return json(await savePromptSet(app.db, auth.team.id, { ...body, name: params.name }));
});

/** DELETE /api/v1/evals/prompt-sets/<name> — runs made with it keep their own copy of the cases. */
export const DELETE = route(deletePromptSetOperation, async ({ params }, { app, auth }) =>
  json(await deletePromptSet(app.db, auth.team.id, params.name)),
);

export const { POST, PATCH, HEAD, OPTIONS } = otherMethods({ GET, PUT, DELETE });
