import { appendLedger, readLedger as readLedgerOperation } from "@/lib/contracts/ledger";
import { otherMethods } from "@/lib/http/methods";
import { json, text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";
import { appendRecord, readLedger } from "@/lib/ledger/append";
import { formatLedger, ledgerKey, recordJson } from "@/lib/ledger/records";

/** POST /api/v1/ledger/<slug> — one of the seven actions of docs/ledger.md#the-list-text; `list` answers the ledger as text. */
export const POST = route(appendLedger, async ({ params: { slug }, body }, { app, auth, sessionId }) => {
  if (body.action === "list") return text(formatLedger(slug, await readLedger(app.db, auth.team.id, slug)));
  const record = await appendRecord(app.db, auth.team.id, slug, body, { keyId: auth.keyId, userId: null, sessionId });
  return json({ record: recordJson(record), ledger: ledgerKey(slug) }, 201);
});

/** GET /api/v1/ledger/<slug> — the `list` text. */
export const GET = route(readLedgerOperation, async ({ params: { slug } }, { app, auth }) =>
  text(formatLedger(slug, await readLedger(app.db, auth.team.id, slug))),
);

export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET, POST });
