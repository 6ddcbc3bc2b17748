import { createSkillSchema, pageQuerySchema } from "@/lib/api/schemas";
import { createLearned } from "@/lib/learned/write";
import { readJson } from "@/lib/http/body";
import { paginate } from "@/lib/http/page";
import { readQuery } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { describeCatalog } from "@/lib/skills/catalog";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/skills — every skill the team can see, shadowed and draft ones included, with diagnostics. */
export const GET = agentRoute("read", async ({ req, app, auth }) => {
  const query = readQuery(req, pageQuerySchema);
  const { skills, diagnostics } = describeCatalog(await app.catalogs.catalog(auth.team));
  const page = paginate(skills, query);
  return json({ skills: page.items, diagnostics, nextCursor: page.nextCursor });
});

/** POST /api/v1/skills — a learned skill: a draft unless an admin key asks for "active" (§6.1). */
export const POST = agentRoute("write", async ({ req, app, auth, actor }) => {
  const { sessionId, ...input } = await readJson(req, createSkillSchema);
  const author = sessionId ? { ...actor, sessionId } : actor;
  return json(await createLearned(app, auth.team.id, author, input), 201);
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
