import { pageQuerySchema } from "@/lib/api/schemas";
import { describeCatalog } from "@/lib/skills/catalog";
import { paginate } from "@/lib/http/page";
import { readQuery } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";

/** GET /api/v1/skills — every skill the team can see, shadowed and draft ones included, with diagnostics. */
export const GET = agentRoute("read", async ({ req, app, auth }) => {
  const query = readQuery(req, pageQuerySchema);
  const { skills, diagnostics } = describeCatalog(await app.catalogs.catalog(auth.team));
  const page = paginate(skills, query);
  return json({ skills: page.items, diagnostics, nextCursor: page.nextCursor });
});
