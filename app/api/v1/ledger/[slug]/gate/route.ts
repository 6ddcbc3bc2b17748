import { parseLedgerSlug } from "@/lib/ledger/append";
import { ledgerGate } from "@/lib/ledger/gate";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/ledger/<slug>/gate — 200 when no prediction is open, else 409 with each open one verbatim. */
export const GET = agentRoute<{ slug: string }>("read", async ({ params, app, auth }) => {
  const gate = await ledgerGate(app.db, auth.team.id, parseLedgerSlug(params.slug));
  const open = gate.open.map((record) => ({ id: record.id, text: record.text, falsifiedBy: record.falsifiedBy, hypothesis: record.ref }));
  if (!gate.message) return json({ ledger: gate.ledger, open });
  return json({ error: { code: "OpenPredictions", message: gate.message }, ledger: gate.ledger, open }, 409);
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
