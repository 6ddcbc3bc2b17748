import type { z } from "zod";
/** Ledger records as values, and their one-line text form (docs/ledger.md#the-list-text). Pure: the list, the gate and the pages share it. */

export const LEDGER_ACTIONS = [
  "record-hypothesis",
  "record-prediction",
  "record-verdict",
  "record-observation",
  "record-conclusion",
  "record-skip",
  "list",
] as const;
export type LedgerAction = (typeof LEDGER_ACTIONS)[number];

export type RecordKind = "hypothesis" | "prediction" | "verdict" | "observation" | "conclusion" | "skip";
export type Verdict = "confirmed" | "refuted" | "inconclusive";
export const VERDICTS: readonly Verdict[] = ["confirmed", "refuted", "inconclusive"];

export const ID_PREFIX: Record<RecordKind, string> = {
  hypothesis: "H",
  prediction: "P",
  verdict: "V",
  observation: "O",
  conclusion: "C",
  skip: "S",
};

/** `sci.<slug>/ledger` — the plan's ledger key. */
export type LedgerSlug = string & z.core.$brand<"LedgerSlug">;

export function ledgerKey(slug: string): string {
  return `sci.${slug}/ledger`;
}

export interface LedgerRecord {
  id: string;
  kind: RecordKind;
  /** The hypothesis a prediction tests, the prediction a verdict or skip is about. */
  ref: string | null;
  text: string | null;
  falsifiedBy: string | null;
  verdict: Verdict | null;
  evidence: string | null;
  reason: string | null;
  createdAt: Date;
}

/** A record's fields as the API returns them: nulls left out. */
export function recordJson(record: LedgerRecord) {
  return Object.fromEntries(Object.entries({ ...record, createdAt: record.createdAt.toISOString() }).filter(([, value]) => value !== null));
}

/** Predictions with neither a verdict nor a skip: the claims nobody has tested. */
export function openPredictions(records: LedgerRecord[]): LedgerRecord[] {
  const judged = new Set(records.filter((r) => r.kind === "verdict" || r.kind === "skip").map((r) => r.ref));
  return records.filter((r) => r.kind === "prediction" && !judged.has(r.id));
}

/** Line breaks inside a field are written as `\n` so every record stays on one line. */
function oneLine(value: string): string {
  return value.replace(/\r\n|\n|\r/g, "\\n");
}

/** A field appending required of this kind of record; nothing rewrites a record afterwards. */
function requiredField(record: LedgerRecord, field: "text" | "falsifiedBy" | "reason"): string {
  const value = record[field];
  if (value === null) throw new Error(`ledger record ${record.id} (${record.kind}) has no ${field}`);
  return value;
}

/** `P1 prediction (H1): <text> | falsifiedBy: <command> [open]` and the like. */
export function recordLine(record: LedgerRecord, open: boolean): string {
  const head = `${record.id} ${record.kind}${record.ref ? ` (${record.ref})` : ""}`;
  switch (record.kind) {
    case "prediction":
      return `${head}: ${oneLine(requiredField(record, "text"))} | falsifiedBy: ${oneLine(requiredField(record, "falsifiedBy"))}${open ? " [open]" : ""}`;
    case "verdict":
      return `${head}: ${record.verdict}${record.evidence ? ` | evidence: ${oneLine(record.evidence)}` : ""}`;
    case "skip":
      return `${head}: skipped | reason: ${oneLine(requiredField(record, "reason"))}`;
    default:
      return `${head}: ${oneLine(requiredField(record, "text"))}`;
  }
}

/** The `list` text: the header line, then one line per record in the order they were written. */
export function formatLedger(slug: string, records: LedgerRecord[]): string {
  const open = openPredictions(records);
  const openIds = new Set(open.map((r) => r.id));
  const header = `[experiment] ${ledgerKey(slug)}: ${records.length} record(s), ${open.length} open prediction(s)`;
  return [header, ...records.map((record) => recordLine(record, openIds.has(record.id)))].join("\n");
}
