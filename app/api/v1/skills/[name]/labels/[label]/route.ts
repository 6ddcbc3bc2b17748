import { moveLabel, removeLabel } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import * as labels from "@/lib/learned/served";

/** PUT /api/v1/skills/<name>/labels/<label> — put a label on a version; DELETE takes it off (docs/learned-skills.md#labels). */
export const PUT = route(moveLabel, async ({ params, body }, { app, auth, actor }) =>
  json(await labels.moveLabel(app, auth.team.id, actor, params.name, params.label, body.version, body.reason)),
);

export const DELETE = route(removeLabel, async ({ params, body }, { app, auth, actor }) =>
  json(await labels.removeLabel(app, auth.team.id, actor, params.name, params.label, body.reason)),
);

export const { GET, POST, PATCH, HEAD, OPTIONS } = otherMethods({ PUT, DELETE });
