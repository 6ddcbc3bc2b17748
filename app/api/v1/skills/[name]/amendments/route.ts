import { listAmendments as listAmendmentsOperation, proposeAmendment as proposeAmendmentOperation } from "@/lib/contracts/evolution";
import { listAmendments, proposeAmendment } from "@/lib/evolution/amendments";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/skills/<name>/amendments — propose a change; it has no authority until evaluated. */
export const POST = route(proposeAmendmentOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await proposeAmendment(app.db, app.catalogs, auth.team, actor, params.name, body), 201),
);

/** GET /api/v1/skills/<name>/amendments — the skill's amendments, newest first, with their latest evaluation. */
export const GET = route(listAmendmentsOperation, async ({ params }, { app, auth }) => {
  const amendments = await listAmendments(app.db, auth.team.id, params.name);
  return json({ amendments });
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
