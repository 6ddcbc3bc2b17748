import type { LedgerRecord } from "@/lib/ledger/records";
import type { PredictionNode, TimelineItem } from "@/lib/ledger/timeline";
import { CARD } from "@/components/ui/card";
import { When } from "@/components/ui/when";

/** Predictions nobody has tested, each with the command that would falsify it: the plan cannot finish while any is open. */
export function OpenPredictions({ open }: { open: LedgerRecord[] }) {
  return (
    <section className="rounded-lg border-2 border-amber-300 bg-amber-50 p-4" aria-label="Open predictions">
      <h2 className="mb-2 font-semibold text-amber-900">Never tested: {open.length} open prediction(s)</h2>
      <ul className="space-y-3">
        {open.map((p) => (
          <li key={p.id} data-open={p.id}>
            <div className="text-sm">
              <span className="font-mono font-semibold">{p.id}</span> ({p.ref}) {p.text}
            </div>
            <code
              className="mt-1 block whitespace-pre-wrap rounded bg-slate-900 px-2 py-1 font-mono text-xs text-slate-100"
              data-falsified-by={p.id}
            >
              {p.falsifiedBy}
            </code>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The plan's records in the order written, predictions and their verdicts under their hypothesis. */
export function Timeline({ items }: { items: TimelineItem[] }) {
  return (
    <section className="space-y-3" aria-label="Timeline">
      <h2 className="font-semibold">Timeline</h2>
      <ol className="space-y-3 border-l-2 border-slate-200 pl-4">
        {items.map((item) => (
          <li key={item.record.id} className="relative" data-record={item.record.id}>
            <span className="absolute -left-[1.4rem] top-2 h-2.5 w-2.5 rounded-full bg-slate-400" />
            <TimelineEntry item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function TimelineEntry({ item }: { item: TimelineItem }) {
  if (item.kind !== "hypothesis") {
    const conclusion = item.kind === "conclusion";
    return (
      <div className={`rounded-lg border p-3 ${conclusion ? "border-indigo-200 bg-indigo-50" : "border-slate-200 bg-white"}`}>
        <RecordHead record={item.record} label={conclusion ? "Conclusion" : "Observation"} />
        <p className="mt-1 whitespace-pre-wrap text-sm">{item.record.text}</p>
      </div>
    );
  }
  return (
    <div className={`${CARD} p-3`}>
      <RecordHead record={item.record} label="Hypothesis" />
      <p className="mt-1 whitespace-pre-wrap text-sm">{item.record.text}</p>
      {item.predictions.length > 0 && (
        <ul className="mt-3 space-y-2">
          {item.predictions.map((node) => (
            <Prediction key={node.prediction.id} node={node} />
          ))}
        </ul>
      )}
    </div>
  );
}

function RecordHead({ record, label }: { record: LedgerRecord; label: string }) {
  return (
    <div className="flex items-center gap-2 text-xs text-slate-500">
      <span className="font-mono font-semibold text-slate-800">{record.id}</span>
      <span>{label}</span>
      <span>
        · <When at={record.createdAt} />
      </span>
    </div>
  );
}

const VERDICT_STYLE = {
  confirmed: "bg-emerald-100 text-emerald-900",
  refuted: "bg-red-100 text-red-900",
  inconclusive: "bg-slate-200 text-slate-800",
} as const;

function Prediction({ node }: { node: PredictionNode }) {
  const { prediction, judgement, open } = node;
  return (
    <li
      className={`rounded-md border p-2 ${open ? "border-amber-400 bg-amber-50" : "border-slate-200 bg-slate-50"}`}
      data-prediction={prediction.id}
      data-open={open ? "true" : "false"}
    >
      <RecordHead record={prediction} label="Prediction" />
      <p className="mt-1 whitespace-pre-wrap text-sm">{prediction.text}</p>
      <p className="mt-1 text-xs text-slate-500">
        Falsified by: <code className="rounded bg-slate-200 px-1 font-mono text-slate-800">{prediction.falsifiedBy}</code>
      </p>
      <div className="mt-2 text-sm" data-judgement={prediction.id}>
        {open && <span className="rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-900">OPEN — not tested yet</span>}
        {judgement?.kind === "verdict" && (
          <span>
            <span className="font-mono text-xs text-slate-500">{judgement.id}</span>{" "}
            <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${judgement.verdict ? VERDICT_STYLE[judgement.verdict] : ""}`}>
              {judgement.verdict}
            </span>
            {judgement.evidence && <span className="whitespace-pre-wrap text-slate-700"> {judgement.evidence}</span>}
          </span>
        )}
        {judgement?.kind === "skip" && (
          <span>
            <span className="font-mono text-xs text-slate-500">{judgement.id}</span>{" "}
            <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold">skipped</span>{" "}
            <span className="text-slate-700">{judgement.reason}</span>
          </span>
        )}
      </div>
    </li>
  );
}
