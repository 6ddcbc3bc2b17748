import { amendmentSchema } from "@/lib/api/schemas";
import { listAmendments, proposeAmendment } from "@/lib/evolution/amendments";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/amendments — propose a change; it has no authority until evaluated. */
export const POST = agentRoute<{ name: string }>("write", async ({ req, params, app, auth, actor }) => {
  const name = parseSkillName(params.name);
  const input = await readJson(req, amendmentSchema);
  return json(await proposeAmendment(app.db, app.catalogs, auth.team, actor, name, input), 201);
});

/** GET /api/v1/skills/<name>/amendments — the skill's amendments, newest first, with their latest evaluation. */
export const GET = agentRoute<{ name: string }>("read", async ({ params, app, auth }) =>
  json({ amendments: await listAmendments(app.db, auth.team.id, parseSkillName(params.name)) }),
);

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
