import { describeCatalog } from "@/lib/skills/catalog";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";

/** GET /api/v1/skills — every skill the team can see, shadowed and draft ones included, with diagnostics. */
export const GET = agentRoute("read", async ({ app, auth }) => json(describeCatalog(await app.catalogs.catalog(auth.team))));
