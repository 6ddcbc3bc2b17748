import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { isAppError } from "@/lib/errors";
import type { ActivationMetrics } from "@/lib/activation/metrics";
import { runReport } from "@/lib/activation/runs";
import { CancelRunButton } from "@/components/activation/cancel-button";
import { LiveRefresh } from "@/components/history/live-refresh";
import { Stat } from "@/components/stat";
import { cancelRunAction } from "../../actions";
import { percent } from "@/lib/format";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Run #${(await params).id}` };
}

export default async function RunPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team: slug, id } = await params;
  const member = await requireMember(slug, `/t/${slug}/activation/runs/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  const run = await runReport(member.app.db, member.team.id, Number(id)).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404) notFound();
    throw error;
  });
  const metrics = (run.metrics ?? null) as ActivationMetrics | null;
  const running = run.status === "running";
  return (
    <div className="space-y-6">
      <LiveRefresh running={running} />
      <div>
        <Link href={`/t/${slug}/activation`} className="text-sm text-indigo-700 hover:underline">
          ← Activation
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">
          Run #{run.id}: {run.activator}
          {run.modelId ? ` (${run.modelId})` : ""} on <span className="font-mono">{run.promptSet}</span>
        </h1>
        <p className="text-sm text-slate-500" data-testid="run-status">
          {run.status} · {run.done} of {run.caseRuns} case-runs · {run.trials} trial(s) per case
        </p>
      </div>
      {running && (
        <div className="flex items-center gap-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="progress">
          <div className="h-2 flex-1 rounded bg-slate-100">
            <div className="h-2 rounded bg-indigo-600" style={{ width: `${(run.done / Math.max(1, run.caseRuns)) * 100}%` }} />
          </div>
          {roleAtLeast(member.role, "editor") && <CancelRunButton cancel={cancelRunAction.bind(null, slug, run.id)} />}
        </div>
      )}
      {run.error && <p className="rounded-md bg-red-50 p-3 text-sm text-red-800">{run.error}</p>}
      {metrics && (
        <section className="grid grid-cols-2 gap-4 md:grid-cols-6" aria-label="Metrics">
          <Stat label="Activation" value={percent(metrics.activationRate)} />
          <Stat label="D (keywords)" value={percent(metrics.byClass.D)} />
          <Stat label="P (paraphrase)" value={percent(metrics.byClass.P)} />
          <Stat label="G (nothing)" value={percent(metrics.byClass.G)} />
          <Stat label="False triggers" value={percent(metrics.falseTriggerRate)} />
          <Stat label="Wrong selections" value={String(metrics.wrongSelections)} />
        </section>
      )}
      <section className="rounded-lg border border-slate-200 bg-white" aria-label="Results">
        <table className="w-full text-sm" data-testid="results" tabIndex={0} aria-label="Results">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">Case</th>
              <th className="px-3 py-2">Prompt</th>
              <th className="px-3 py-2">Expected</th>
              <th className="px-3 py-2">Trial</th>
              <th className="px-3 py-2">Loaded</th>
              <th className="px-3 py-2">Result</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </section>
      <details className="rounded-lg border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer font-semibold">The listing this run measured</summary>
        <pre
          className="mt-2 overflow-x-auto whitespace-pre rounded-md bg-slate-900 p-4 font-mono text-xs text-slate-100"
          data-testid="run-listing"
        >
          {run.listingText}
        </pre>
      </details>
    </div>
  );
}
