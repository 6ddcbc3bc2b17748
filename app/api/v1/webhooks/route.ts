import { createWebhook as createWebhookOperation, listWebhooks as listWebhooksOperation } from "@/lib/contracts/webhooks";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { createWebhook, listWebhooks, type WebhookRow } from "@/lib/webhooks/webhooks";

const asJson = (hook: WebhookRow) => ({ ...hook, createdAt: hook.createdAt.toISOString() });

/** POST /api/v1/webhooks — register a receiver; its secret is in this answer only. GET lists them. */
export const POST = route(createWebhookOperation, async ({ body }, { app, auth }) => {
  const hook = await createWebhook(app.db, auth.team.id, body, { userId: null, keyId: auth.keyId });
  return json(asJson(hook), 201);
});

export const GET = route(listWebhooksOperation, async (_input, { app, auth }) => {
  return json({ webhooks: (await listWebhooks(app.db, auth.team.id)).map(asJson) });
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
