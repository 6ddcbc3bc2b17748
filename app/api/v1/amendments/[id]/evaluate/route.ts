import { evaluateAmendment as evaluateAmendmentOperation } from "@/lib/contracts/evolution";
import { evaluateAmendment } from "@/lib/evolution/evaluate";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/amendments/<id>/evaluate — judge the amendment on the skill's history; answers when done. */
export const POST = route(evaluateAmendmentOperation, async ({ params }, { app, auth, actor }) =>
  json(await evaluateAmendment(app, auth.team, actor, params.id)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
