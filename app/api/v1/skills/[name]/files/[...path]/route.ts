import { getSkillFile } from "@/lib/contracts/files";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contentTypeOf } from "@/lib/skills/content-types";
import { readSkillFile } from "@/lib/skills/files";

/** GET /api/v1/skills/<name>/files/<path> — one supporting file, byte for byte. */
export const GET = route(getSkillFile, async ({ params }, { app, auth }) => {
  const filePath = params.path.join("/");
  const { content, sha256 } = await readSkillFile(app.catalogs, auth.team, params.name, filePath);
  return new Response(Buffer.from(content), {
    headers: {
      "content-type": contentTypeOf(filePath),
      etag: `"${sha256}"`,
      // Files are the team's data, not our pages: never rendered or sniffed on our origin.
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "content-disposition": "attachment",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
