import { idParamSchema, promoteAmendmentSchema } from "@/lib/api/schemas";
import { promoteAmendment } from "@/lib/evolution/promote";
import { parseWith, readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/amendments/<id>/promote — by hand: an improved one, or a lead's override with a written reason. */
export const POST = agentRoute<{ id: string }>("write", async ({ req, params, app, auth, actor }) => {
  const id = parseWith(idParamSchema, params.id, "InvalidQuery");
  const { reason } = await readJson(req, promoteAmendmentSchema);
  return json(await promoteAmendment(app, auth.team, actor, id, reason));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
