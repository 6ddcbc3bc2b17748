import { changeMemberRole, removeMember as removeMemberOperation } from "@/lib/contracts/members";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { changeRole, removeMember } from "@/lib/teams/members";

/** PATCH /api/v1/members/<email> — change a member's role. */
export const PATCH = route(changeMemberRole, async ({ params: { email }, body: { role } }, { app, auth }) => {
  const member = await changeRole(app.db, auth.team.id, email, role);
  return json({ email: member.email, role: member.role, joinedAt: member.joinedAt.toISOString() });
});

/** DELETE /api/v1/members/<email> — remove a member; their sessions end. */
export const DELETE = route(removeMemberOperation, async ({ params: { email } }, { app, auth }) => {
  const removed = await removeMember(app.db, auth.team.id, email);
  return json({ email: removed.email, removed: true, sessionsEnded: removed.sessionsEnded });
});

export const { GET, POST, PUT, HEAD, OPTIONS } = otherMethods({ PATCH, DELETE });
