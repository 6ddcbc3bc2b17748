import { diffQuerySchema } from "@/lib/api/schemas";
import { diffVersions } from "@/lib/learned/history";
import { readQuery } from "@/lib/http/params";
import { text } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills/<name>/diff?from=A&to=B — unified diff of two versions' SKILL.md. */
export const GET = agentRoute<{ name: string }>("read", async ({ req, params, app, auth }) => {
  const name = parseSkillName(params.name);
  const { from, to } = readQuery(req, diffQuerySchema);
  return text(await diffVersions(app.db, app.catalogs, auth.team, name, from, to));
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
