import { testWebhook } from "@/lib/contracts/webhooks";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { sendTestEvent } from "@/lib/webhooks/webhooks";

/** POST /api/v1/webhooks/<id>/test — a `ping` through the outbox, sent beside this request. */
export const POST = route(testWebhook, async ({ params: { id } }, { app, auth }) => {
  return json(await sendTestEvent(app.db, auth.team.id, id), 202);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
