import { observationQuerySchema } from "@/lib/api/schemas";
import { listObservations } from "@/lib/evolution/observations";
import { readQuery } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name>/observations — newest first; filter by outcome, category, version, since, until. */
export const GET = agentRoute<{ name: string }>("read", async ({ req, params, app, auth }) => {
  const name = parseSkillName(params.name);
  const query = readQuery(req, observationQuerySchema);
  const rows = await listObservations(app.db, auth.team.id, name, {
    ...query,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
  });
  return json({ observations: rows.map(({ teamId: _team, keyId: _key, ...row }) => row) });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
