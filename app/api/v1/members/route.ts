import { listMembers as listMembersOperation } from "@/lib/contracts/members";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { listMembers } from "@/lib/teams/members";

/** GET /api/v1/members — the team's members and their roles. */
export const GET = route(listMembersOperation, async (_input, { app, auth }) => {
  const members = await listMembers(app.db, auth.team.id);
  return json({ members: members.map((member) => ({ email: member.email, role: member.role, joinedAt: member.joinedAt.toISOString() })) });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
