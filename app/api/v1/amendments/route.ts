import { listTeamAmendments } from "@/lib/contracts/evolution";
import { listAmendments } from "@/lib/evolution/amendments";
import { otherMethods } from "@/lib/http/methods";
import { pageById } from "@/lib/http/page";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/amendments?status=&skill= — the team's amendments, newest first; ?status=awaiting-approval is a lead's queue. */
export const GET = route(listTeamAmendments, async ({ query }, { app, auth }) => {
  const { status, skill, ...pageQuery } = query;
  const page = await pageById(pageQuery, (filter) => listAmendments(app, auth.team, { ...filter, status, skill }));
  return json({ amendments: page.items, nextCursor: page.nextCursor });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
