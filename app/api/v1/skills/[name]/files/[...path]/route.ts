import { getSkillFile } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contentTypeOf } from "@/lib/skills/content-types";
import { readSkillFile } from "@/lib/skills/files";

/** GET /api/v1/skills/<name>/files/<path> — one supporting file, byte for byte. */
export const GET = route(getSkillFile, async ({ params }, { app, auth }) => {
  const filePath = params.path.join("/");
  const bytes = await readSkillFile(app.db, app.catalogs, auth.team, params.name, filePath);
  return new Response(Buffer.from(bytes), {
    headers: {
      "content-type": contentTypeOf(filePath),
      // Files are the team's data, not our pages: never rendered or sniffed on our origin.
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "content-disposition": "attachment",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
