import { recordObservations as recordObservationsOperation } from "@/lib/contracts/evolution";
import { recordObservations } from "@/lib/evolution/observations";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/observations — one run of a skill, or `{"observations": [...]}` (up to 500), all or nothing. */
export const POST = route(recordObservationsOperation, async ({ body }, { app, auth, sessionId }) =>
  json({ ids: await recordObservations(app.db, app.catalogs, auth.team, body, { keyId: auth.keyId, sessionId }) }, 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
