import { listAmendments as listAmendmentsOperation, proposeAmendment as proposeAmendmentOperation } from "@/lib/contracts/evolution";
import { listAmendments, proposeAmendment } from "@/lib/evolution/amendments";
import { otherMethods } from "@/lib/http/methods";
import { pageById } from "@/lib/http/page";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/skills/<name>/amendments — propose a change; it has no authority until evaluated. */
export const POST = route(proposeAmendmentOperation, async ({ params, body }, { app, auth, actor }) =>
  json(await proposeAmendment(app.db, app.catalogs, auth.team, actor, params.name, body), 201),
);

/** GET /api/v1/skills/<name>/amendments — the skill's amendments, newest first, with their state and decisions. */
export const GET = route(listAmendmentsOperation, async ({ params, query }, { app, auth }) => {
  const page = await pageById(query, (filter) => listAmendments(app, auth.team, { ...filter, skill: params.name }));
  return json({ amendments: page.items, nextCursor: page.nextCursor });
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
