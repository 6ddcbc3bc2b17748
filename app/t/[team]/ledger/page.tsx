import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/pages/member";
import { ledgerReport } from "@/lib/ledger/rates";
import { PassRateByWeek, PassRateBySkill } from "@/components/ledger/pass-rate-charts";
import { Stat } from "@/components/stat";
import { percent } from "@/lib/format";

export const metadata: Metadata = { title: "Ledger" };

export default async function LedgerPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: slug } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/ledger`);
  const { ledgers, passRate } = await ledgerReport(app.db, team.id);
  const open = ledgers.reduce((sum, l) => sum + l.openPredictions, 0);
  const judged = passRate.team.confirmed + passRate.team.refuted + passRate.team.inconclusive;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Experiment ledger</h1>
        <p className="text-sm text-slate-500">
          Every plan&apos;s hypotheses, predictions and verdicts. An open prediction is a claim nobody has tested yet.
        </p>
      </div>
      <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Headline figures">
        <Stat label="Plans" value={String(ledgers.length)} />
        <Stat
          label="Open predictions"
          value={String(open)}
          tone={open > 0 ? "warn" : "good"}
          note={open > 0 ? "untested claims" : "every claim tested"}
        />
        <Stat label="Pass rate" value={percent(passRate.team.rate)} note={`${judged} verdict(s)`} />
        <Stat label="Refuted" value={String(passRate.team.refuted)} note="predictions the evidence overturned" />
      </section>
      {judged > 0 && (
        <section className="grid gap-4 lg:grid-cols-2">
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Pass rate by week</h2>
            <PassRateByWeek points={passRate.byWeek} />
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 font-semibold">Pass rate by skill</h2>
            <PassRateBySkill
              points={passRate.bySkill.map((row) => ({
                skill: row.skill ?? "(no skill named)",
                rate: row.rate,
                verdicts: row.confirmed + row.refuted + row.inconclusive,
              }))}
            />
          </div>
        </section>
      )}
      <section className="rounded-lg border border-slate-200 bg-white" aria-label="Plans">
        {ledgers.length === 0 ? (
          <p className="p-4 text-sm text-slate-500">No plan has a ledger yet. Agents start one with POST /api/v1/ledger/&lt;slug&gt;.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Plan</th>
                <th className="px-3 py-2">Skill</th>
                <th className="px-3 py-2 text-right">Records</th>
                <th className="px-3 py-2 text-right">Open predictions</th>
                <th className="px-3 py-2 text-right">Pass rate</th>
                <th className="px-3 py-2">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {ledgers.map((ledger) => (
                <tr key={ledger.slug} className="border-t border-slate-100" data-plan={ledger.slug}>
                  <td className="px-3 py-2">
                    <Link href={`/t/${slug}/ledger/${ledger.slug}`} className="font-mono text-indigo-700 hover:underline">
                      sci.{ledger.slug}/ledger
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    {ledger.skill ? (
                      <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${ledger.skill}`}>
                        {ledger.skill}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{ledger.records}</td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {ledger.openPredictions > 0 ? (
                      <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900">{ledger.openPredictions}</span>
                    ) : (
                      "0"
                    )}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{percent(ledger.rate)}</td>
                  <td className="px-3 py-2 text-slate-600">
                    {ledger.lastActivity ? ledger.lastActivity.slice(0, 16).replace("T", " ") : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
