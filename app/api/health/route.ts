import { describeDatabaseError } from "@/db/outage";
import { getApp } from "@/lib/current-app";
import { json } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";

const HEALTH = "health checks";

/**
 * GET /api/health — 200 with the database's state, or 503 saying what failed. The database is
 * asked on a connection of its own (`Database.ping`), not through the pool: a burst of requests
 * queued for connections is load, and health must answer within moments whatever the queue holds
 * (issue 38). A failure is logged once when it starts and once when it ends.
 */
export async function GET(): Promise<Response> {
  let app;
  try {
    app = await getApp();
    await app.database.ping();
  } catch (error) {
    app?.work.outages.failed(HEALTH, error);
    const why = describeDatabaseError(error);
    return json({ status: "unavailable", database: { state: "down", error: why } }, 503, { "retry-after": "5" });
  }
  app.work.outages.recovered(HEALTH);
  return json({ status: "ok", database: { kind: app.database.kind, state: "up" } });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
