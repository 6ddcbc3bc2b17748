import { syncSkills } from "@/lib/contracts/sync";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { readSyncTree } from "@/lib/http/sync-tree";
import { describeCatalog } from "@/lib/skills/catalog";
import { syncWorkspace } from "@/lib/skills/sync";
import { viewSkillRoute } from "../view-handler";
import { archiveSkillRoute, updateSkillRoute } from "../write-handlers";

/** POST /api/v1/skills/sync — replace the team's workspace tree (JSON or a .tar.gz), all or nothing; ?dryRun=true only says what it would do. */
export const POST = route(syncSkills, async ({ query }, { req, app, auth }) => {
  const tree = await readSyncTree(req);
  const { changes, invalid, ignored, catalog, dryRun } = await syncWorkspace(app.db, app.catalogs, auth.team.id, tree, {
    strict: query.strict === "true",
    allowEmpty: query.allowEmpty === "true",
    dryRun: query.dryRun === "true",
  });
  return json({ ...describeCatalog(catalog), changes, invalid, ignored, dryRun });
});

// A skill may be named "sync": the other methods still reach it.
const asSkill = { params: Promise.resolve({ name: "sync" }) };
export const GET = (req: Request) => viewSkillRoute(req, asSkill);
export const PUT = (req: Request) => updateSkillRoute(req, asSkill);
export const DELETE = (req: Request) => archiveSkillRoute(req, asSkill);

export const { PATCH, HEAD, OPTIONS } = otherMethods({ GET, POST, PUT, DELETE });
