import { createInvitation as createInvitationOperation, listInvitations as listInvitationsOperation } from "@/lib/contracts/members";
import { otherMethods } from "@/lib/http/methods";
import { publicOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { invite, NOT_MAILED, pendingInvitations } from "@/lib/teams/invitations";

/** POST /api/v1/invitations — invite a person by email with a role; GET lists the pending ones. */
export const POST = route(createInvitationOperation, async ({ body }, { req, app, auth }) => {
  const invitation = await invite(app, auth.team.id, body, publicOrigin(req.headers, req.url), { userId: null, keyId: auth.keyId });
  return json(
    {
      id: invitation.id,
      url: invitation.url,
      expiresAt: invitation.expiresAt.toISOString(),
      mailed: invitation.mailed,
      notMailed: invitation.notMailed && NOT_MAILED[invitation.notMailed],
    },
    201,
  );
});

export const GET = route(listInvitationsOperation, async (_input, { app, auth }) => {
  const pending = await pendingInvitations(app.db, auth.team.id);
  return json({
    invitations: pending.map((invitation) => ({
      ...invitation,
      createdAt: invitation.createdAt.toISOString(),
      expiresAt: invitation.expiresAt.toISOString(),
    })),
  });
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
