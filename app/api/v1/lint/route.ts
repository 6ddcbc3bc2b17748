import { lintBodySchema } from "@/lib/api/schemas";
import { readJson } from "@/lib/http/body";
import { text } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { formatLint, lintDescription } from "@/lib/lint/lint";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/lint — lint a description before it is written, with the team's descMax. */
export const POST = agentRoute("read", async ({ req, auth }) => {
  const { description } = await readJson(req, lintBodySchema);
  return text(formatLint(lintDescription(description, auth.team.descMax)));
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
