import { exportSkills } from "@/lib/contracts/transfer";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { exportTeamTree } from "@/lib/learned/team-export";
import { packTarGz } from "@/lib/skills/tar-gz";

/** GET /api/v1/export — the team's workspace and learned skills, every file with its mode, in a .tar.gz. */
export const GET = route(exportSkills, async (_input, { app, auth }) => {
  const archive = await packTarGz(await exportTeamTree(app.db, auth.team.id));
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${auth.team.slug}-skills.tar.gz"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
