import { ledgerReport as ledgerReportOperation } from "@/lib/contracts/ledger";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { ledgerReport } from "@/lib/ledger/rates";

/** GET /api/v1/ledger — the team's plans with counts and pass rates, and the pass rate per skill and per week. */
export const GET = route(ledgerReportOperation, async (_input, { app, auth }) => json(await ledgerReport(app.db, auth.team.id)));

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
