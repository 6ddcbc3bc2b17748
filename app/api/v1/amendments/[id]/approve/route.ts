import { approveAmendment as approveAmendmentOperation } from "@/lib/contracts/evolution";
import { approveAmendment } from "@/lib/evolution/promote";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/amendments/<id>/approve — a lead puts an amendment awaiting approval live. */
export const POST = route(approveAmendmentOperation, async ({ params }, { app, auth, actor }) =>
  json(await approveAmendment(app, auth.team, actor, params.id)),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
