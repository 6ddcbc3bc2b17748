import { ledgerGate as ledgerGateOperation } from "@/lib/contracts/ledger";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { ledgerGate } from "@/lib/ledger/gate";

/** GET /api/v1/ledger/<slug>/gate — 200 when no prediction is open, else 409 with each open one verbatim. */
export const GET = route(ledgerGateOperation, async ({ params }, { app, auth }) => {
  const gate = await ledgerGate(app.db, auth.team.id, params.slug);
  const open = gate.open.map((record) => ({ id: record.id, text: record.text, falsifiedBy: record.falsifiedBy, hypothesis: record.ref }));
  if (!gate.message) return json({ ledger: gate.ledger, open });
  return json({ error: { code: "OpenPredictions", message: gate.message }, ledger: gate.ledger, open }, 409);
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
