import { promoteAmendment as promoteAmendmentOperation } from "@/lib/contracts/evolution";
import { promoteAmendment } from "@/lib/evolution/promote";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/amendments/<id>/promote — by hand: one awaiting approval is approved; anything else is a lead's override with a written reason. */
export const POST = route(promoteAmendmentOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await promoteAmendment(app, auth.team, actor, params.id, body.reason)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
