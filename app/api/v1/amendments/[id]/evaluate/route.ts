import { idParamSchema } from "@/lib/api/schemas";
import { evaluateAmendment } from "@/lib/evolution/evaluate";
import { parseWith } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/amendments/<id>/evaluate — judge the amendment on the skill's history; answers when done. */
export const POST = agentRoute<{ id: string }>("write", async ({ params, app, auth, actor }) => {
  const id = parseWith(idParamSchema, params.id, "InvalidQuery");
  return json(await evaluateAmendment(app, auth.team, actor, id));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
