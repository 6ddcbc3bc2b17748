import { viewSkill as viewSkillOperation } from "@/lib/contracts/catalog";
import { notModified } from "@/lib/http/params";
import { text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { servedHeaders, skillViewText, viewSkill } from "@/lib/skills/view";

/**
 * skill_view (docs/skills-and-listing.md#skill_view): the annotation line, then the body byte for byte; ETag = SHA-256 of that
 * version's SKILL.md. Answered from memory while the database is away, the view still counts: it
 * waits in the view buffer with the others.
 */
export const viewSkillRoute = route(
  viewSkillOperation,
  async ({ params, query }, { req, app, auth, sessionId }) => {
    const team = { ...auth.team, label: query.label ?? null };
    const content = await viewSkill(app, { team, keyId: auth.keyId, sessionId }, params.name, query.version);
    const headers = {
      etag: `"${content.sha256}"`,
      "x-skill-version": String(content.version),
      "x-skill-source": content.annotationSource,
      ...servedHeaders(content),
      "cache-control": "private, no-cache",
    };
    if (notModified(req, headers.etag)) return new Response(null, { status: 304, headers });
    return text(skillViewText(content), 200, headers);
  },
  ({ params }, { app, auth, sessionId }, kept) => {
    const header = (name: string) => kept.headers.find(([key]) => key === name)?.[1] ?? "";
    app.views.record({
      teamId: auth.team.id,
      skillName: params.name,
      source: header("x-skill-source"),
      version: Number(header("x-skill-version")),
      keyId: auth.keyId,
      sessionId,
      viewedAt: new Date(),
    });
  },
);
