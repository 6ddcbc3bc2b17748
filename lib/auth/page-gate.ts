import { isDatabaseBusy, isDatabaseOutage } from "@/db/outage";
import { getApp } from "../current-app";
import { checkDashboardSession } from "./dashboard-sessions";
import { readSessionToken } from "./session-cookie";

/**
 * What the proxy does with a request for a dashboard page, before anything renders: let it
 * through, send the visitor to sign in (no cookie, or one whose session ended), or answer 503
 * because the database that holds sessions cannot be reached — or did not answer in time, busy
 * with a burst of other requests.
 */
export type PageGate = "pass" | "sign-in" | "unavailable" | "busy";

export async function gateDashboardPage(headers: Headers): Promise<PageGate> {
  const token = await readSessionToken(headers);
  if (!token) return "sign-in";
  try {
    const app = await getApp();
    const live = await checkDashboardSession(app.database, token.sessionId, app.sessionPolicy);
    return live?.userId === token.userId ? "pass" : "sign-in";
  } catch (error) {
    if (isDatabaseOutage(error)) return "unavailable";
    if (isDatabaseBusy(error)) return "busy";
    throw error;
  }
}
