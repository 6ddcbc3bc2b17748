import { revokeInstallLink as revokeInstallLinkOperation } from "@/lib/contracts/install-links";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { revokeInstallLink, type InstallLinkId } from "@/lib/teams/install-links";

/** DELETE /api/v1/install-links/<id> — revoke a link: from now on it answers 401. */
export const DELETE = route(revokeInstallLinkOperation, async ({ params: { id } }, { app, auth }) => {
  const revoked = await revokeInstallLink(app.db, auth.team.id, id as InstallLinkId);
  return json({ id: revoked.id, revokedAt: revoked.revokedAt.toISOString() });
});

export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
