import { rejectAmendment as rejectAmendmentOperation } from "@/lib/contracts/evolution";
import { rejectAmendment } from "@/lib/evolution/promote";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/amendments/<id>/reject — a lead turns down an amendment awaiting approval, with a reason. */
export const POST = route(rejectAmendmentOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await rejectAmendment(app.db, auth.team, actor, params.id, body.reason)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
