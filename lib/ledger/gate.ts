import type { Db } from "@/db/client";
import type { TeamId } from "../teams/teams";
import { readLedger } from "./append";
import { ledgerKey, openPredictions, recordLine, type LedgerRecord, type LedgerSlug } from "./records";

export interface GateResult {
  ledger: string;
  open: LedgerRecord[];
  /** For a closed gate: `Error [OpenPredictions]: …` and each open prediction, one per line. */
  message: string | null;
}

/** The finishing gate (docs/ledger.md#the-finishing-gate): clear when no prediction is open; otherwise every open one, verbatim. */
export async function ledgerGate(db: Db, teamId: TeamId, slug: LedgerSlug): Promise<GateResult> {
  const open = openPredictions(await readLedger(db, teamId, slug));
  const ledger = ledgerKey(slug);
  if (open.length === 0) return { ledger, open, message: null };
  const lines = open.map((record) => recordLine(record, true));
  return { ledger, open, message: `Error [OpenPredictions]: ${ledger} has ${open.length} open prediction(s)\n${lines.join("\n")}` };
}
