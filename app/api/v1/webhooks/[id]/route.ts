import { deleteWebhook as deleteWebhookOperation } from "@/lib/contracts/webhooks";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { deleteWebhook } from "@/lib/webhooks/webhooks";

/** DELETE /api/v1/webhooks/<id> — nothing more is sent to it; its deliveries go with it. */
export const DELETE = route(deleteWebhookOperation, async ({ params: { id } }, { app, auth }) => {
  const deleted = await deleteWebhook(app.db, auth.team.id, id);
  return json({ id: deleted.id, deleted: true });
});

export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
