import { listPromptSets as listPromptSetsOperation, savePromptSet as savePromptSetOperation } from "@/lib/contracts/activation";
import { listPromptSets, savePromptSet } from "@/lib/activation/prompt-sets";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/evals/prompt-sets — the team's prompt sets. */
export const GET = route(listPromptSetsOperation, async (_input, { app, auth }) =>
  json({ promptSets: await listPromptSets(app.db, auth.team.id) }),
);

/** POST /api/v1/evals/prompt-sets — create or replace a prompt set `{name, cases: [{id, prompt, expected, expectNone}]}`. */
export const POST = route(savePromptSetOperation, async ({ body }, { app, auth }) =>
  json(await savePromptSet(app.db, auth.team.id, body), 201),
);

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
