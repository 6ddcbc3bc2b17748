import { createSkill } from "@/lib/contracts/learned";
import { listSkills } from "@/lib/contracts/catalog";
import { createLearned } from "@/lib/learned/write";
import { otherMethods } from "@/lib/http/methods";
import { paginate } from "@/lib/http/page";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { catalogDiagnostics, catalogEntries, describeEntry } from "@/lib/skills/catalog";

/** GET /api/v1/skills — every skill the team can see, shadowed and draft ones included, with diagnostics. */
export const GET = route(listSkills, async ({ query }, { app, auth }) => {
  const catalog = await app.catalogs.catalog(auth.team);
  const page = paginate(catalogEntries(catalog), query);
  return json({ skills: page.items.map(describeEntry), diagnostics: catalogDiagnostics(catalog), nextCursor: page.nextCursor });
});

/** POST /api/v1/skills — a learned skill: a draft unless an admin key asks for "active" (docs/learned-skills.md#drafts-and-promotion). */
export const POST = route(createSkill, async ({ body: { sessionId, ...input } }, { app, auth, actor }) => {
  const author = sessionId ? { ...actor, sessionId } : actor;
  return json(await createLearned(app, auth.team.id, author, input), 201);
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
