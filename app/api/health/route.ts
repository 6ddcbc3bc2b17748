import { describeDatabaseError, isDatabaseOutage } from "@/db/outage";
import { getApp } from "@/lib/current-app";
import { json } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { logUnexpected, OutageLog } from "@/lib/log";

const HEALTH = "health checks";
const BOOT = "health checks: booting the app";
/**
 * A boot that fails has no App whose log could say so (the database unreachable since start-up,
 * each health check booting again): said here, once when it starts and once when it ends.
 */
const bootOutage = new OutageLog();

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
    if (app) app.work.outages.failed(HEALTH, error);
    else if (isDatabaseOutage(error)) bootOutage.failed(BOOT, error);
    else logUnexpected(BOOT, error);
    const why = describeDatabaseError(error);
    return json({ status: "unavailable", database: { state: "down", error: why } }, 503, { "retry-after": "5" });
  }
  bootOutage.recovered(BOOT);
  app.work.outages.recovered(HEALTH);
  return json({ status: "ok", database: { kind: app.database.kind, state: "up" } });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
