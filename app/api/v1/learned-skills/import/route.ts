import { importQuerySchema } from "@/lib/api/schemas";
import { readSyncTree } from "@/lib/api/sync-body";
import { importLearned } from "@/lib/learned/transfer";
import { readQuery } from "@/lib/http/params";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/learned-skills/import — learned skill folders (JSON or .tar.gz), all or nothing. */
export const POST = agentRoute("admin", async ({ req, app, auth, actor }) => {
  const { origin } = readQuery(req, importQuerySchema);
  const files = await readSyncTree(req);
  return json(await importLearned(app, auth.team.id, actor, files, origin ?? null), 201);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
