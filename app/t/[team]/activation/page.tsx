import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/pages/member";
import { roleAtLeast } from "@/lib/auth/scopes";
import { activationOverview } from "@/lib/activation/overview";
import { PromptSetEditor } from "@/components/activation/prompt-set-editor";
import { RecallChart, RunsChart } from "@/components/activation/charts";
import { RunForm } from "@/components/activation/run-form";
import { Stat } from "@/components/stat";
import { savePromptSetAction, startRunAction } from "./actions";
import { percent } from "@/lib/format";
import { promptSetJson } from "@/lib/activation/prompt-sets";

export const metadata: Metadata = { title: "Activation" };

export default async function ActivationPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { team: slug } = await params;
  const query = await searchParams;
  const member = await requireMember(slug, `/t/${slug}/activation`);
  const a = Number(query.a);
  const b = Number(query.b);
  const compare = Number.isInteger(a) && Number.isInteger(b) && a > 0 && b > 0 ? { a, b } : undefined;
  const view = await activationOverview(member.app, member.team, compare);
  const canRun = roleAtLeast(member.role, "editor");
  const [latest, previous] = [view.finished[view.finished.length - 1], view.finished[view.finished.length - 2]];
  const trend =
    latest && previous && latest.metrics.activationRate !== null && previous.metrics.activationRate !== null
      ? latest.metrics.activationRate - previous.metrics.activationRate
      : null;
  const recall = view.latest
    ? Object.entries(view.latest.metrics.perSkill)
        .map(([skill, m]) => ({ skill, recall: m.recall ?? 0, expected: m.expected }))
        .sort((x, y) => x.recall - y.recall || (x.skill < y.skill ? -1 : 1))
    : [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Activation</h1>
        <p className="text-sm text-slate-500">
          Does the agent load the right skill? Measured with eval runs against the listing agents get, and with real usage.
        </p>
      </div>
      <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Headline figures">
        <Stat
          label="Activation (latest run)"
          value={percent(latest?.metrics.activationRate)}
          note={trend === null ? undefined : `${trend >= 0 ? "+" : ""}${Math.round(trend * 100)} points vs the run before`}
          tone={trend === null ? "plain" : trend >= 0 ? "good" : "warn"}
        />
        <Stat label="False triggers" value={percent(latest?.metrics.falseTriggerRate)} />
        <Stat
          label="Never loaded"
          value={String(view.usage.neverLoaded.length)}
          tone={view.usage.neverLoaded.length > 0 ? "warn" : "good"}
          note="by any agent, ever"
        />
        <Stat
          label="Merge candidates"
          value={String(view.usage.coLoaded.filter((p) => p.share >= 0.8).length)}
          note="pairs loaded together ≥ 80% of the time"
        />
      </section>

      {canRun && (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-2 font-semibold">Start a run</h2>
          <RunForm
            promptSets={view.promptSets.map((s) => s.name)}
            hasModel={member.app.model !== null}
            start={startRunAction.bind(null, slug)}
          />
        </section>
      )}

      <section className="grid gap-4 lg:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-2 font-semibold">Runs over time</h2>
          {view.finished.length === 0 ? (
            <p className="text-sm text-slate-500">No finished run yet.</p>
          ) : (
            <RunsChart
              points={view.finished.map((run) => ({
                run: `#${run.id}`,
                time: new Date(run.createdAt).getTime(),
                activation: run.metrics.activationRate,
                D: run.metrics.byClass.D,
                P: run.metrics.byClass.P,
                G: run.metrics.byClass.G,
                falseTriggers: run.metrics.falseTriggerRate,
              }))}
            />
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-2 font-semibold">Recall per skill{view.latest ? ` (run #${view.latest.id})` : ""}</h2>
          {recall.length === 0 ? <p className="text-sm text-slate-500">No finished run yet.</p> : <RecallChart points={recall} />}
        </div>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Runs">
        <form method="get" className="mb-3 flex flex-wrap items-end gap-3">
          <h2 className="mr-auto font-semibold">Runs</h2>
          <RunSelect label="Compare run" name="a" runs={view.runs} chosen={compare?.a ?? view.finished[view.finished.length - 2]?.id} />
          <RunSelect label="with run" name="b" runs={view.runs} chosen={compare?.b ?? view.finished[view.finished.length - 1]?.id} />
          <button className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">Compare</button>
        </form>
        <table className="w-full text-sm">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Run</th>
              <th className="py-1">Activator</th>
              <th className="py-1">Prompt set</th>
              <th className="py-1">Status</th>
              <th className="py-1 text-right">Activation</th>
              <th className="py-1 text-right">D / P / G</th>
              <th className="py-1 text-right">False triggers</th>
              <th className="py-1 pl-3">Started</th>
            </tr>
          </thead>
          <tbody>
            {view.runs.map((run) => {
              const m = run.metrics as {
                activationRate: number | null;
                byClass: Record<"D" | "P" | "G", number | null>;
                falseTriggerRate: number | null;
              } | null;
              return (
                <tr key={run.id} className="border-t border-slate-100" data-run={run.id}>
                  <td className="py-1.5">
                    <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/activation/runs/${run.id}`}>
                      #{run.id}
                    </Link>
                  </td>
                  <td className="py-1.5">
                    {run.activator}
                    {run.modelId ? ` · ${run.modelId}` : ""}
                  </td>
                  <td className="py-1.5 font-mono text-xs">{run.promptSet}</td>
                  <td className="py-1.5">{run.status === "running" ? `running ${run.done}/${run.caseRuns}` : run.status}</td>
                  <td className="py-1.5 text-right tabular-nums">{percent(m?.activationRate)}</td>
                  <td className="py-1.5 text-right tabular-nums">
                    {m ? `${percent(m.byClass.D)} / ${percent(m.byClass.P)} / ${percent(m.byClass.G)}` : "—"}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{percent(m?.falseTriggerRate)}</td>
                  <td className="py-1.5 pl-3 text-slate-600">{run.createdAt.slice(0, 16).replace("T", " ")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {view.comparison && (
          <div className="mt-4" data-testid="comparison">
            <h3 className="mb-2 font-semibold">
              Run #{view.comparison.a.id} → run #{view.comparison.b.id}: activation{" "}
              {percent((view.comparison.a.metrics as { activationRate?: number | null } | null)?.activationRate)} →{" "}
              {percent((view.comparison.b.metrics as { activationRate?: number | null } | null)?.activationRate)}
            </h3>
            <table className="w-full text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-1">Case</th>
                  <th className="py-1">Prompt</th>
                  <th className="py-1">Expected</th>
                  <th className="py-1">Run #{view.comparison.a.id} loaded</th>
                  <th className="py-1">Run #{view.comparison.b.id} loaded</th>
                  <th className="py-1">Change</th>
                </tr>
              </thead>
              <tbody>
                {view.comparison.cases.map((c) => (
                  <tr
                    key={c.id}
                    className={`border-t border-slate-100 ${c.change === "better" ? "bg-emerald-50" : c.change === "worse" ? "bg-red-50" : ""}`}
                    data-compare={c.id}
                  >
                    <td className="py-1.5 font-mono text-xs">{c.id}</td>
                    <td className="py-1.5">{c.prompt}</td>
                    <td className="py-1.5 font-mono text-xs">{c.expectNone ? "nothing" : c.expected.join(", ")}</td>
                    <td className="py-1.5 font-mono text-xs">
                      {c.a ? `${c.a.loaded.join(", ") || "nothing"} (${c.a.passed}/${c.a.runs})` : "—"}
                    </td>
                    <td className="py-1.5 font-mono text-xs">
                      {c.b ? `${c.b.loaded.join(", ") || "nothing"} (${c.b.passed}/${c.b.runs})` : "—"}
                    </td>
                    <td className="py-1.5">{c.change}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="grid gap-4 lg:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Never loaded">
          <h2 className="mb-2 font-semibold">Never loaded</h2>
          <p className="mb-2 text-sm text-slate-500">
            In the listing, but no agent has ever loaded them: clutter in every routing decision.
          </p>
          {view.usage.neverLoaded.length === 0 ? (
            <p className="text-sm text-emerald-700">Every listed skill has been loaded.</p>
          ) : (
            <ul className="space-y-1 font-mono text-sm" data-testid="never-loaded">
              {view.usage.neverLoaded.map((name) => (
                <li key={name}>
                  <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${name}`}>
                    {name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Co-loaded">
          <h2 className="mb-2 font-semibold">Loaded together</h2>
          <p className="mb-2 text-sm text-slate-500">
            Pairs loaded in the same sessions (last 30 days); near 100% of the rarer one&apos;s sessions, they are candidates to merge.
          </p>
          {view.usage.coLoaded.length === 0 ? (
            <p className="text-sm text-slate-500">No pair shares two or more sessions.</p>
          ) : (
            <table className="w-full text-sm" data-testid="co-loaded">
              <tbody>
                {view.usage.coLoaded.map((pair) => (
                  <tr key={`${pair.a}+${pair.b}`} className="border-t border-slate-100">
                    <td className="py-1 font-mono text-xs">
                      {pair.a} + {pair.b}
                    </td>
                    <td className="py-1 pl-2 text-right whitespace-nowrap tabular-nums">{pair.sessions} sessions</td>
                    <td className="py-1 pl-3 text-right tabular-nums">{Math.round(pair.share * 100)}%</td>
                    <td className="py-1 pl-2">
                      {pair.share >= 0.8 && (
                        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">merge?</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Prompt sets">
        <h2 className="mb-2 font-semibold">Prompt sets</h2>
        <p className="mb-2 text-sm text-slate-500">
          Cases in the JSON form <code>{"{id, prompt, expected, expectNone}"}</code>; a case&apos;s id starts with its class: D names the
          skill&apos;s keywords, P paraphrases without them, G should trigger nothing.
        </p>
        {canRun ? (
          <PromptSetEditor sets={view.promptSets.map(promptSetJson)} save={savePromptSetAction.bind(null, slug)} />
        ) : (
          <ul className="font-mono text-sm">
            {view.promptSets.map((set) => (
              <li key={set.name}>
                {set.name} ({set.cases.length} cases)
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function RunSelect({
  label,
  name,
  runs,
  chosen,
}: {
  label: string;
  name: string;
  runs: { id: number; activator: string }[];
  chosen: number | undefined;
}) {
  return (
    <label className="text-sm">
      {label}
      <select name={name} defaultValue={chosen ?? ""} className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm">
        {runs.map((run) => (
          <option key={run.id} value={run.id}>
            #{run.id} {run.activator}
          </option>
        ))}
      </select>
    </label>
  );
}
