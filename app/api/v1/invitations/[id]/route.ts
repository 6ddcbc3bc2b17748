import { withdrawInvitation as withdrawInvitationOperation } from "@/lib/contracts/members";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { withdrawInvitation, type InvitationId } from "@/lib/teams/invitations";

/** DELETE /api/v1/invitations/<id> — withdraw a pending invitation. */
export const DELETE = route(withdrawInvitationOperation, async ({ params: { id } }, { app, auth }) => {
  const withdrawn = await withdrawInvitation(app.db, auth.team.id, id as InvitationId);
  return json({ id: withdrawn.id, revokedAt: withdrawn.revokedAt.toISOString() });
});

export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
