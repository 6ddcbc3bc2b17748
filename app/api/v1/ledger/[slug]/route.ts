import { ledgerBodySchema } from "@/lib/api/schemas";
import { appendRecord, parseLedgerAction, parseLedgerSlug, readLedger } from "@/lib/ledger/append";
import { formatLedger, ledgerKey, recordJson } from "@/lib/ledger/records";
import { readJson } from "@/lib/http/body";
import { json, text } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/ledger/<slug> — one of the seven actions of §7; `list` answers the ledger as text. */
export const POST = agentRoute<{ slug: string }>("write", async ({ req, params, app, auth, sessionId }) => {
  const slug = parseLedgerSlug(params.slug);
  const input = await readJson(req, ledgerBodySchema);
  if (parseLedgerAction(input.action) === "list") return text(formatLedger(slug, await readLedger(app.db, auth.team.id, slug)));
  const record = await appendRecord(app.db, auth.team.id, slug, input, { keyId: auth.keyId, userId: null, sessionId });
  return json({ record: recordJson(record), ledger: ledgerKey(slug) }, 201);
});

/** GET /api/v1/ledger/<slug> — the `list` text. */
export const GET = agentRoute<{ slug: string }>("read", async ({ params, app, auth }) => {
  const slug = parseLedgerSlug(params.slug);
  return text(formatLedger(slug, await readLedger(app.db, auth.team.id, slug)));
});

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
