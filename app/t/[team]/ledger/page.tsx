import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/pages/member";
import { ledgerReport } from "@/lib/ledger/rates";
import type { LedgerSummary } from "@/lib/ledger/rates";
import { weekRate } from "@/lib/ledger/week-rate";
import { PassRateByWeek, PassRateBySkill } from "@/components/ledger/pass-rate-charts";
import { WeekRatesTable } from "@/components/ledger/week-rates-table";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";
import { percent } from "@/lib/format";
import type { TeamPageProps } from "../team-page";
import { When } from "@/components/ui/when";

export const metadata: Metadata = { title: "Ledger" };

type PassRate = Awaited<ReturnType<typeof ledgerReport>>["passRate"];

export default async function LedgerPage({ params }: TeamPageProps) {
  const { team: slug } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/ledger`);
  const { ledgers, passRate } = await ledgerReport(app.db, team.id);
  const open = ledgers.reduce((sum, l) => sum + l.openPredictions, 0);
  const judged = passRate.team.confirmed + passRate.team.refuted + passRate.team.inconclusive;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Experiment ledger"
        description="Every plan's hypotheses, predictions and verdicts. An open prediction is a claim nobody has tested yet."
      />
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
      {judged > 0 && <PassRateCharts passRate={passRate} />}
      <Section flush aria-label="Plans">
        {ledgers.length === 0 ? (
          <p className="p-4 text-sm text-slate-500">No plan has a ledger yet. Agents start one with POST /api/v1/ledger/&lt;slug&gt;.</p>
        ) : (
          <PlansTable slug={slug} ledgers={ledgers} />
        )}
      </Section>
    </div>
  );
}

function PassRateCharts({ passRate }: { passRate: PassRate }) {
  const weeks = passRate.byWeek.map(weekRate);
  return (
    <section className="grid gap-4 lg:grid-cols-2">
      <Card title="Pass rate by week">
        <PassRateByWeek points={weeks} />
        <WeekRatesTable weeks={weeks} />
      </Card>
      <Card title="Pass rate by skill">
        <PassRateBySkill
          points={passRate.bySkill.map((row) => ({
            skill: row.skill ?? "(no skill named)",
            rate: row.rate,
            verdicts: row.confirmed + row.refuted + row.inconclusive,
          }))}
        />
      </Card>
    </section>
  );
}

function PlansTable({ slug, ledgers }: { slug: string; ledgers: LedgerSummary[] }) {
  return (
    <Table
      label="Every plan"
      boxed
      head={
        <>
          <th className="px-3 py-2">Plan</th>
          <th className="px-3 py-2">Skill</th>
          <th className="px-3 py-2 text-right">Records</th>
          <th className="px-3 py-2 text-right">Open predictions</th>
          <th className="px-3 py-2 text-right">Pass rate</th>
          <th className="px-3 py-2">Last activity</th>
        </>
      }
    >
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
          <td className="px-3 py-2 text-slate-600">{ledger.lastActivity ? <When at={ledger.lastActivity} /> : "—"}</td>
        </tr>
      ))}
    </Table>
  );
}
