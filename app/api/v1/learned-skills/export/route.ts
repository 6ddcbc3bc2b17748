import { exportLearned } from "@/lib/contracts/transfer";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { exportLearnedTarGz } from "@/lib/learned/transfer";

/** GET /api/v1/learned-skills/export — the team's learned skills as SKILL.md folders in a .tar.gz. */
export const GET = route(exportLearned, async (_input, { app, auth }) => {
  const archive = await exportLearnedTarGz(app.db, app.catalogs, auth.team);
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${auth.team.slug}-learned-skills.tar.gz"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
