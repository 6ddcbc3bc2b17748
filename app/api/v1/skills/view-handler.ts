import { viewQuerySchema } from "@/lib/api/schemas";
import { notModified, readQuery } from "@/lib/http/params";
import { text } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { parseSkillName } from "@/lib/skills/name";
import { skillViewText, viewSkill } from "@/lib/skills/view";

/** skill_view (§4): the annotation line, then the body byte for byte; ETag = SHA-256 of that version's SKILL.md. */
export const viewSkillRoute = agentRoute<{ name: string }>("read", async ({ req, params, app, auth, sessionId }) => {
  const name = parseSkillName(params.name);
  const { version } = readQuery(req, viewQuerySchema);
  const content = await viewSkill(app, { team: auth.team, keyId: auth.keyId, sessionId }, name, version);
  const headers = {
    etag: `"${content.sha256}"`,
    "x-skill-version": String(content.version),
    "x-skill-source": content.annotationSource,
    "cache-control": "private, no-cache",
  };
  if (notModified(req, headers.etag)) return new Response(null, { status: 304, headers });
  return text(skillViewText(content), 200, headers);
});
