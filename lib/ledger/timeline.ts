import { openPredictions, type LedgerRecord } from "./records";

/** A ledger arranged for reading: hypotheses with their predictions and each prediction's verdict or skip. */
export interface PredictionNode {
  prediction: LedgerRecord;
  judgement: LedgerRecord | null;
  open: boolean;
}

export type TimelineItem =
  | { kind: "hypothesis"; record: LedgerRecord; predictions: PredictionNode[] }
  | { kind: "observation" | "conclusion"; record: LedgerRecord };

/** Top-level items in the order written; predictions and judgements nest under what they are about. */
export function buildTimeline(records: LedgerRecord[]): TimelineItem[] {
  const open = new Set(openPredictions(records).map((r) => r.id));
  const judgements = new Map(records.filter((r) => r.kind === "verdict" || r.kind === "skip").map((r) => [r.ref, r]));
  const predictionsOf = new Map<string | null, PredictionNode[]>();
  for (const record of records.filter((r) => r.kind === "prediction")) {
    const node = { prediction: record, judgement: judgements.get(record.id) ?? null, open: open.has(record.id) };
    predictionsOf.set(record.ref, [...(predictionsOf.get(record.ref) ?? []), node]);
  }
  const items: TimelineItem[] = [];
  for (const record of records) {
    if (record.kind === "hypothesis") items.push({ kind: "hypothesis", record, predictions: predictionsOf.get(record.id) ?? [] });
    else if (record.kind === "observation" || record.kind === "conclusion") items.push({ kind: record.kind, record });
  }
  return items;
}
