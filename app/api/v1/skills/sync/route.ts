import { readSyncTree } from "@/lib/api/sync-body";
import { describeCatalog } from "@/lib/skills/catalog";
import { syncWorkspace } from "@/lib/skills/sync";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { viewSkillRoute } from "../view-handler";
import { archiveSkillRoute, updateSkillRoute } from "../write-handlers";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/skills/sync — replace the team's workspace tree (JSON or a .tar.gz), all or nothing. */
export const POST = agentRoute("admin", async ({ req, app, auth }) => {
  const files = await readSyncTree(req);
  const { changes, catalog } = await syncWorkspace(app.db, app.catalogs, auth.team.id, files);
  return json({ ...describeCatalog(catalog), changes });
});

// A skill may be named "sync": the other methods still reach it.
const asSkill = { params: Promise.resolve({ name: "sync" }) };
export const GET = (req: Request) => viewSkillRoute(req, asSkill);
export const PUT = (req: Request) => updateSkillRoute(req, asSkill);
export const DELETE = (req: Request) => archiveSkillRoute(req, asSkill);

export const { PATCH, HEAD, OPTIONS } = otherMethods({ GET, POST, PUT, DELETE });
