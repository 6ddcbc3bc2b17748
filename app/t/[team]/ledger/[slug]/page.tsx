import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { isAppError } from "@/lib/errors";
import { parseLedgerSlug } from "@/lib/ledger/append";
import { ledgerDetail } from "@/lib/ledger/detail";
import type { LedgerRecord } from "@/lib/ledger/records";
import type { PredictionNode } from "@/lib/ledger/timeline";
import { Stat } from "@/components/stat";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  return { title: `sci.${(await params).slug}/ledger` };
}

const time = (date: Date) => date.toISOString().slice(0, 16).replace("T", " ");

export default async function LedgerPlanPage({ params }: { params: Promise<{ team: string; slug: string }> }) {
  const { team: teamSlug, slug: raw } = await params;
  const { app, team } = await requireMember(teamSlug, `/t/${teamSlug}/ledger/${raw}`);
  let slug;
  try {
    slug = parseLedgerSlug(raw);
  } catch (error) {
    if (isAppError(error)) notFound();
    throw error;
  }
  const detail = await ledgerDetail(app.db, team.id, slug);
  if (!detail) notFound();
  const judged = detail.verdicts.confirmed + detail.verdicts.refuted + detail.verdicts.inconclusive;
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/t/${teamSlug}/ledger`} className="text-sm text-indigo-700 hover:underline">
          ← All plans
        </Link>
        <h1 className="mt-1 font-mono text-2xl font-semibold">{detail.key}</h1>
        {detail.skill && (
          <p className="text-sm text-slate-600">
            Exercises{" "}
            <Link className="text-indigo-700 hover:underline" href={`/t/${teamSlug}/skills/${detail.skill}`}>
              {detail.skill}
            </Link>
          </p>
        )}
      </div>
      <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Figures">
        <Stat label="Records" value={String(detail.records.length)} />
        <Stat
          label="Open predictions"
          value={String(detail.open.length)}
          tone={detail.open.length > 0 ? "warn" : "good"}
          note={detail.open.length > 0 ? "the finishing gate is closed" : "the finishing gate is clear"}
        />
        <Stat
          label="Pass rate"
          value={judged === 0 ? "—" : `${Math.round((detail.verdicts.confirmed / judged) * 100)}%`}
          note={`${judged} verdict(s)`}
        />
        <Stat label="Refuted" value={String(detail.verdicts.refuted)} />
      </section>

      {detail.open.length > 0 && (
        <section className="rounded-lg border-2 border-amber-300 bg-amber-50 p-4" aria-label="Open predictions">
          <h2 className="mb-2 font-semibold text-amber-900">Never tested: {detail.open.length} open prediction(s)</h2>
          <ul className="space-y-3">
            {detail.open.map((p) => (
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
      )}

      <section className="space-y-3" aria-label="Timeline">
        <h2 className="font-semibold">Timeline</h2>
        <ol className="space-y-3 border-l-2 border-slate-200 pl-4">
          {detail.timeline.map((item) => (
            <li key={item.record.id} className="relative" data-record={item.record.id}>
              <span className="absolute -left-[1.4rem] top-2 h-2.5 w-2.5 rounded-full bg-slate-400" />
              {item.kind === "hypothesis" ? (
                <div className="rounded-lg border border-slate-200 bg-white p-3">
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
              ) : (
                <div
                  className={`rounded-lg border p-3 ${item.kind === "conclusion" ? "border-indigo-200 bg-indigo-50" : "border-slate-200 bg-white"}`}
                >
                  <RecordHead record={item.record} label={item.kind === "conclusion" ? "Conclusion" : "Observation"} />
                  <p className="mt-1 whitespace-pre-wrap text-sm">{item.record.text}</p>
                </div>
              )}
            </li>
          ))}
        </ol>
      </section>

      <details className="rounded-lg border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer font-semibold">The ledger as agents list it</summary>
        <pre
          className="mt-2 overflow-x-auto whitespace-pre rounded-md bg-slate-900 p-4 font-mono text-xs text-slate-100"
          data-testid="list-text"
        >
          {detail.listText}
        </pre>
      </details>
    </div>
  );
}

function RecordHead({ record, label }: { record: LedgerRecord; label: string }) {
  return (
    <div className="flex items-center gap-2 text-xs text-slate-500">
      <span className="font-mono font-semibold text-slate-800">{record.id}</span>
      <span>{label}</span>
      <span>· {time(record.createdAt)} UTC</span>
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
