import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgers } from "@/db/schema";
import type { TeamId } from "../teams/teams";
import { readLedger } from "./append";
import { formatLedger, ledgerKey, openPredictions, type LedgerRecord, type LedgerSlug } from "./records";
import { buildTimeline, type TimelineItem } from "./timeline";

export interface LedgerDetail {
  key: string;
  skill: string | null;
  records: LedgerRecord[];
  open: LedgerRecord[];
  timeline: TimelineItem[];
  /** Exactly what `list` answers. */
  listText: string;
  verdicts: { confirmed: number; refuted: number; inconclusive: number };
}

/** One plan's ledger for its page; null when the team has no such plan. */
export async function ledgerDetail(db: Db, teamId: TeamId, slug: LedgerSlug): Promise<LedgerDetail | null> {
  const [ledger] = await db
    .select()
    .from(ledgers)
    .where(and(eq(ledgers.teamId, teamId), eq(ledgers.slug, slug)));
  if (!ledger) return null;
  const records = await readLedger(db, teamId, slug);
  const count = (verdict: string) => records.filter((r) => r.kind === "verdict" && r.verdict === verdict).length;
  return {
    key: ledgerKey(slug),
    skill: ledger.skill,
    records,
    open: openPredictions(records),
    timeline: buildTimeline(records),
    listText: formatLedger(slug, records),
    verdicts: { confirmed: count("confirmed"), refuted: count("refuted"), inconclusive: count("inconclusive") },
  };
}
