import { exportLearnedTarGz } from "@/lib/learned/transfer";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/learned-skills/export — the team's learned skills as SKILL.md folders in a .tar.gz. */
export const GET = agentRoute("read", async ({ app, auth }) => {
  const archive = await exportLearnedTarGz(app.db, auth.team.id);
  return new Response(new Uint8Array(archive), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${auth.team.slug}-learned-skills.tar.gz"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
