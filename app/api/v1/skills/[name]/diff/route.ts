import { diffVersions as diffVersionsOperation } from "@/lib/contracts/versions";
import { otherMethods } from "@/lib/http/methods";
import { text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { diffVersions } from "@/lib/learned/history";

/** GET /api/v1/skills/<name>/diff?from=A&to=B — unified diff of two versions' SKILL.md. */
export const GET = route(diffVersionsOperation, async ({ params, query }, { app, auth }) =>
  text(await diffVersions(app.db, app.catalogs, auth.team, params.name, query.from, query.to)),
);

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
