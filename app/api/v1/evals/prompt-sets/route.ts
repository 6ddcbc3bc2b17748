import { z } from "zod";
import { listPromptSets, savePromptSet } from "@/lib/activation/prompt-sets";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/evals/prompt-sets — the team's prompt sets. */
export const GET = agentRoute("read", async ({ app, auth }) => json({ promptSets: await listPromptSets(app.db, auth.team.id) }));

/** POST /api/v1/evals/prompt-sets — create or replace a prompt set `{name, cases: [{id, prompt, expected, expectNone}]}`. */
export const POST = agentRoute("write", async ({ req, app, auth }) =>
  json(await savePromptSet(app.db, auth.team.id, await readJson(req, z.unknown(), 8 * 1024 * 1024)), 201),
);

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
