import { reproposeAmendment as reproposeAmendmentOperation } from "@/lib/contracts/evolution";
import { reproposeAmendment } from "@/lib/evolution/repropose";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/amendments/<id>/repropose — an out-of-date amendment's change, against the skill's current version, as a new pending amendment. */
export const POST = route(reproposeAmendmentOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await reproposeAmendment(app, auth.team, actor, params.id, body), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
