import { lintDescription as lintDescriptionOperation } from "@/lib/contracts/lint";
import { otherMethods } from "@/lib/http/methods";
import { text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { formatLint, lintDescription } from "@/lib/lint/lint";

/** POST /api/v1/lint — lint a description before it is written, with the team's descMax. */
export const POST = route(lintDescriptionOperation, async ({ body }, { auth }) =>
  text(formatLint(lintDescription(body.description, auth.team.descMax))),
);

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
