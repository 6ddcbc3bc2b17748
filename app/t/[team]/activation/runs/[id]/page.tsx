import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import type { ActivationMetrics } from "@/lib/activation/metrics";
import { runReport } from "@/lib/activation/runs";
import { percent } from "@/lib/format";
import { ActionButton } from "@/components/action-button";
import { ActionMessageSlot } from "@/components/action-message";
import { LiveRefresh } from "@/components/history/live-refresh";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";
import { TextDetails } from "@/components/ui/text-details";
import { cancelRunAction } from "../../actions";
import { notFoundOn404, type TeamPageProps } from "../../../team-page";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Run #${(await params).id}` };
}

type Run = Awaited<ReturnType<typeof runReport>>;

export default async function RunPage({ params }: TeamPageProps<{ id: string }>) {
  const { team: slug, id } = await params;
  const member = await requireMember(slug, `/t/${slug}/activation/runs/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  const run = await runReport(member.app.db, member.team.id, Number(id)).catch(notFoundOn404);
  const metrics = (run.metrics ?? null) as ActivationMetrics | null;
  const running = run.status === "running";
  // The slot is above the progress bar, which goes with the run's cancel button.
  return (
    <ActionMessageSlot>
      <div className="space-y-6">
        <LiveRefresh running={running} />
        <PageHeader
          back={{ href: `/t/${slug}/activation`, label: "Activation" }}
          title={
            <>
              Run #{run.id}: {run.activator}
              {run.modelId ? ` (${run.modelId})` : ""} on <span className="font-mono">{run.promptSet}</span>
            </>
          }
        >
          <p className="text-sm text-slate-500" data-testid="run-status">
            {run.status} · {run.done} of {run.caseRuns} case-runs · {run.trials} trial(s) per case
          </p>
        </PageHeader>
        {running && (
          <Card className="flex items-center gap-4" data-testid="progress">
            <div className="h-2 flex-1 rounded bg-slate-100">
              <div className="h-2 rounded bg-indigo-600" style={{ width: `${(run.done / Math.max(1, run.caseRuns)) * 100}%` }} />
            </div>
            {roleAtLeast(member.role, "editor") && (
              <ActionButton
                label="Cancel run"
                tone="danger"
                confirm="Cancel this run? What it measured so far is kept."
                action={cancelRunAction.bind(null, slug, run.id)}
              />
            )}
          </Card>
        )}
        {run.error && <p className="rounded-md bg-red-50 p-3 text-sm text-red-800">{run.error}</p>}
        {metrics && <RunFigures metrics={metrics} />}
        <Results run={run} />
        <TextDetails summary="The listing this run measured" testId="run-listing" text={run.listingText} />
      </div>
    </ActionMessageSlot>
  );
}

function RunFigures({ metrics }: { metrics: ActivationMetrics }) {
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-6" aria-label="Metrics">
      <Stat label="Activation" value={percent(metrics.activationRate)} />
      <Stat label="D (keywords)" value={percent(metrics.byClass.D)} />
      <Stat label="P (paraphrase)" value={percent(metrics.byClass.P)} />
      <Stat label="G (nothing)" value={percent(metrics.byClass.G)} />
      <Stat label="False triggers" value={percent(metrics.falseTriggerRate)} />
      <Stat label="Wrong selections" value={String(metrics.wrongSelections)} />
    </section>
  );
}

/** Every trial of every case: what was expected, what the activator loaded, and whether it passed. */
function Results({ run }: { run: Run }) {
  return (
    <Section flush aria-label="Results">
      <Table
        label="Every trial of every case"
        tableLabel="Results"
        testId="results"
        boxed
        head={
          <>
            <th className="px-3 py-2">Case</th>
            <th className="px-3 py-2">Prompt</th>
            <th className="px-3 py-2">Expected</th>
            <th className="px-3 py-2">Trial</th>
            <th className="px-3 py-2">Loaded</th>
            <th className="px-3 py-2">Result</th>
          </>
        }
      >
        {run.results.map((r) => {
          const c = run.cases.find((x) => x.id === r.id);
          if (!c) throw new Error(`run ${run.id} has a result for "${r.id}", which is not one of its cases`);
          return (
            <tr key={`${r.id}#${r.trial}`} className="border-t border-slate-100" data-result={`${r.id}#${r.trial}`}>
              <td className="px-3 py-1.5 font-mono text-xs">{r.id}</td>
              <td className="px-3 py-1.5">{c.prompt}</td>
              <td className="px-3 py-1.5 font-mono text-xs">{c.expectNone ? "nothing" : c.expected.join(", ")}</td>
              <td className="px-3 py-1.5">{r.trial}</td>
              <td className="px-3 py-1.5 font-mono text-xs">{r.loaded.join(", ") || "nothing"}</td>
              <td className="px-3 py-1.5">
                {r.passed ? <span className="text-emerald-700">pass</span> : <span className="text-red-700">fail</span>}
              </td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}
