import {
  createInstallLink as createInstallLinkOperation,
  listInstallLinks as listInstallLinksOperation,
} from "@/lib/contracts/install-links";
import { otherMethods } from "@/lib/http/methods";
import { publicOrigin } from "@/lib/http/origin";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { createInstallLink, listInstallLinks } from "@/lib/teams/install-links";

/** POST /api/v1/install-links — a read-only link for `npx skills add <url>`; GET lists them. */
export const POST = route(createInstallLinkOperation, async ({ query }, { req, app, auth }) => {
  const by = { userId: null, keyId: auth.keyId };
  const label = query.label ?? null;
  await app.catalogs.knownLabel({ ...auth.team, label });
  return json(await createInstallLink(app.db, auth.team.id, publicOrigin(req.headers, req.url).origin, by, label), 201);
});

export const GET = route(listInstallLinksOperation, async (_input, { app, auth }) => {
  const links = await listInstallLinks(app.db, auth.team.id);
  return json({
    links: links.map((link) => ({ ...link, createdAt: link.createdAt.toISOString(), revokedAt: link.revokedAt?.toISOString() ?? null })),
  });
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
