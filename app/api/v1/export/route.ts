import { exportSkills } from "@/lib/contracts/transfer";
import { AppError } from "@/lib/errors";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { servedTree, workspaceTree } from "@/lib/learned/team-export";
import { packTarGz } from "@/lib/skills/tar-gz";

/** GET /api/v1/export — what agents get (the listing's skills at their served versions), or with ?all=true the team's whole workspace, in a .tar.gz. */
export const GET = route(exportSkills, async ({ query }, { app, auth }) => {
  const all = query.all === "true";
  if (all && (query.label || query.learned === "true"))
    throw new AppError("InvalidQuery", "all=true exports the whole workspace: send it without label and learned");
  const team = { ...auth.team, label: query.label ?? null };
  const files = all
    ? await workspaceTree(app.db, app.catalogs, team)
    : await servedTree(app.db, app.catalogs, team, query.learned === "true");
  const archive = await packTarGz({ files, others: [] });
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${auth.team.slug}-${all ? "workspace" : "skills"}.tar.gz"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
