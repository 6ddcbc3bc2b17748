import { generateAmendment as generateAmendmentOperation } from "@/lib/contracts/evolution";
import { generateAmendment } from "@/lib/evolution/amendments";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/skills/<name>/amendments/generate — the configured model proposes an amendment from recent failures. */
export const POST = route(generateAmendmentOperation, async ({ params }, { app, auth, actor }) =>
  json(await generateAmendment(app.db, app.catalogs, app.model, auth.team, actor, params.name), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
