import { generateAmendment } from "@/lib/evolution/amendments";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/<name>/amendments/generate — the configured model proposes an amendment from recent failures. */
export const POST = agentRoute<{ name: string }>("write", async ({ params, app, auth, actor }) =>
  json(await generateAmendment(app.db, app.catalogs, app.model, auth.team, actor, parseSkillName(params.name)), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
