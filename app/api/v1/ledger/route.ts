import { ledgerReport } from "@/lib/ledger/rates";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/ledger — the team's plans with counts and pass rates, and the pass rate per skill and per week. */
export const GET = agentRoute("read", async ({ app, auth }) => json(await ledgerReport(app.db, auth.team.id)));

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
