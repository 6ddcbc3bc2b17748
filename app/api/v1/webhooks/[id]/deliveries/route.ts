import { listWebhookDeliveries } from "@/lib/contracts/webhooks";
import { otherMethods } from "@/lib/http/methods";
import { pageById } from "@/lib/http/page";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { listDeliveries } from "@/lib/webhooks/webhooks";

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** GET /api/v1/webhooks/<id>/deliveries — newest first, each attempt with the receiver's answer. */
export const GET = route(listWebhookDeliveries, async ({ params: { id }, query }, { app, auth }) => {
  const page = await pageById(query, (filter) => listDeliveries(app.db, auth.team.id, id, filter));
  return json({
    deliveries: page.items.map((delivery) => ({
      ...delivery,
      createdAt: delivery.createdAt.toISOString(),
      nextAttemptAt: iso(delivery.nextAttemptAt),
      attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
    })),
    nextCursor: page.nextCursor,
  });
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
