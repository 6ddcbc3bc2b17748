import { listObservations as listObservationsOperation } from "@/lib/contracts/evolution";
import { listObservations } from "@/lib/evolution/observations";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/skills/<name>/observations — newest first; filter by outcome, category, version, since, until. */
export const GET = route(listObservationsOperation, async ({ params, query }, { app, auth }) => {
  const rows = await listObservations(app.db, auth.team.id, params.name, {
    ...query,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
  });
  return json({ observations: rows.map(({ teamId: _team, keyId: _key, ...row }) => ({ ...row, createdAt: row.createdAt.toISOString() })) });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
