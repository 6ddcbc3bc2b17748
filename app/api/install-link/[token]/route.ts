import { installLinkIndex } from "@/lib/contracts/install-links";
import { AppError } from "@/lib/errors";
import { otherMethods } from "@/lib/http/methods";
import { installLinkRoute } from "@/lib/http/route";

/**
 * /i/<token> and any path under it outside `.well-known/skills` (rewritten here by proxy.ts): a
 * link that is not valid answers the same 401 as its index would, so an installer says the link
 * was revoked rather than "HTTP 404"; a valid one is told where its index is. The index's
 * contract parses the token: this route answers nothing else.
 */
const GET = installLinkRoute(installLinkIndex, async ({ token }) => {
  throw new AppError(
    "NotFound",
    `nothing is served here; this install link serves /i/${token}/.well-known/skills/index.json and the files it lists`,
  );
});

export { GET };
export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
