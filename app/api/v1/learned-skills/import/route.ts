import { importLearned as importLearnedOperation } from "@/lib/contracts/transfer";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { readSyncTree } from "@/lib/http/sync-tree";
import { importLearned } from "@/lib/learned/transfer";

/** POST /api/v1/learned-skills/import — learned skill folders (JSON or .tar.gz), all or nothing. */
export const POST = route(importLearnedOperation, async ({ query }, { req, app, auth, actor }) =>
  json(await importLearned(app, auth.team.id, actor, await readSyncTree(req), query.origin ?? null), 201),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
