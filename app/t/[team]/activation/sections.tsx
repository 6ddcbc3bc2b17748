import Link from "next/link";
import type { activationOverview } from "@/lib/activation/overview";
import { promptSetJson } from "@/lib/activation/prompt-sets";
import { percent } from "@/lib/format";
import { RecallChart, RunsChart } from "@/components/activation/charts";
import { PromptSetEditor } from "@/components/activation/prompt-set-editor";
import { Card } from "@/components/ui/card";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";
import { savePromptSetAction } from "./actions";
import { When } from "@/components/ui/when";

type ActivationView = Awaited<ReturnType<typeof activationOverview>>;
type Run = ActivationView["runs"][number];
type Comparison = NonNullable<ActivationView["comparison"]>;

/** The latest run's activation against the run before, false triggers, and what usage says is clutter. */
export function HeadlineFigures({ view }: { view: ActivationView }) {
  const [latest, previous] = [view.finished[view.finished.length - 1], view.finished[view.finished.length - 2]];
  const trend =
    latest && previous && latest.metrics.activationRate !== null && previous.metrics.activationRate !== null
      ? latest.metrics.activationRate - previous.metrics.activationRate
      : null;
  const { neverLoaded, coLoaded } = view.usage;
  return (
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
        value={String(neverLoaded.length)}
        tone={neverLoaded.length > 0 ? "warn" : "good"}
        note="by any agent, ever"
      />
      <Stat
        label="Merge candidates"
        value={String(coLoaded.filter((p) => p.share >= 0.8).length)}
        note="pairs loaded together ≥ 80% of the time"
      />
    </section>
  );
}

export function RunsOverTime({ finished }: { finished: ActivationView["finished"] }) {
  return (
    <Card title="Runs over time">
      {finished.length === 0 ? (
        <p className="text-sm text-slate-500">No finished run yet.</p>
      ) : (
        <RunsChart
          points={finished.map((run) => ({
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
    </Card>
  );
}

/** The latest run's recall per skill, worst first. */
export function RecallPerSkill({ latest }: { latest: ActivationView["latest"] }) {
  const recall = latest
    ? Object.entries(latest.metrics.perSkill)
        .map(([skill, m]) => ({ skill, recall: m.recall ?? 0, expected: m.expected }))
        .sort((x, y) => x.recall - y.recall || (x.skill < y.skill ? -1 : 1))
    : [];
  return (
    <Card title={`Recall per skill${latest ? ` (run #${latest.id})` : ""}`}>
      {recall.length === 0 ? <p className="text-sm text-slate-500">No finished run yet.</p> : <RecallChart points={recall} />}
    </Card>
  );
}

/** Every run, two of them chosen to compare (by default the last two finished), and their comparison case by case. */
export function RunsSection({
  slug,
  view,
  compare,
}: {
  slug: string;
  view: ActivationView;
  compare: { a: number; b: number } | undefined;
}) {
  const { runs, finished, comparison } = view;
  return (
    <Section aria-label="Runs">
      <form method="get" className="mb-3 flex flex-wrap items-end gap-3">
        <h2 className="mr-auto font-semibold">Runs</h2>
        <RunSelect label="Compare run" name="a" runs={runs} chosen={compare?.a ?? finished[finished.length - 2]?.id} />
        <RunSelect label="with run" name="b" runs={runs} chosen={compare?.b ?? finished[finished.length - 1]?.id} />
        <button className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">Compare</button>
      </form>
      <Table
        label="Every run"
        head={
          <>
            <th className="py-1">Run</th>
            <th className="py-1">Activator</th>
            <th className="py-1">Prompt set</th>
            <th className="py-1">Status</th>
            <th className="py-1 text-right">Activation</th>
            <th className="py-1 text-right">D / P / G</th>
            <th className="py-1 text-right">False triggers</th>
            <th className="py-1 pl-3">Started</th>
          </>
        }
      >
        {runs.map((run) => (
          <RunRow key={run.id} slug={slug} run={run} />
        ))}
      </Table>
      {comparison && <CaseByCase comparison={comparison} />}
    </Section>
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

function RunRow({ slug, run }: { slug: string; run: Run }) {
  const m = run.metrics as {
    activationRate: number | null;
    byClass: Record<"D" | "P" | "G", number | null>;
    falseTriggerRate: number | null;
  } | null;
  return (
    <tr className="border-t border-slate-100" data-run={run.id}>
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
      <td className="py-1.5 pl-3 text-slate-600">
        <When at={run.createdAt} />
      </td>
    </tr>
  );
}

const activationOf = (run: Comparison["a"]) => percent((run.metrics as { activationRate?: number | null } | null)?.activationRate);

/** What one run loaded for a case, and how many of its trials passed. */
function loadedIn(result: Comparison["cases"][number]["a"]): string {
  return result ? `${result.loaded.join(", ") || "nothing"} (${result.passed}/${result.runs})` : "—";
}

/** Two runs side by side, case by case, the cases that got better or worse tinted. */
function CaseByCase({ comparison: { a, b, cases } }: { comparison: Comparison }) {
  return (
    <div className="mt-4" data-testid="comparison">
      <h3 className="mb-2 font-semibold">
        Run #{a.id} → run #{b.id}: activation {activationOf(a)} → {activationOf(b)}
      </h3>
      <Table
        label="The two runs, case by case"
        head={
          <>
            <th className="py-1">Case</th>
            <th className="py-1">Prompt</th>
            <th className="py-1">Expected</th>
            <th className="py-1">Run #{a.id} loaded</th>
            <th className="py-1">Run #{b.id} loaded</th>
            <th className="py-1">Change</th>
          </>
        }
      >
        {cases.map((c) => (
          <tr
            key={c.id}
            className={`border-t border-slate-100 ${c.change === "better" ? "bg-emerald-50" : c.change === "worse" ? "bg-red-50" : ""}`}
            data-compare={c.id}
          >
            <td className="py-1.5 font-mono text-xs">{c.id}</td>
            <td className="py-1.5">{c.prompt}</td>
            <td className="py-1.5 font-mono text-xs">{c.expectNone ? "nothing" : c.expected.join(", ")}</td>
            <td className="py-1.5 font-mono text-xs">{loadedIn(c.a)}</td>
            <td className="py-1.5 font-mono text-xs">{loadedIn(c.b)}</td>
            <td className="py-1.5">{c.change}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

export function NeverLoaded({ slug, names }: { slug: string; names: string[] }) {
  return (
    <Card aria-label="Never loaded" title="Never loaded">
      <p className="mb-2 text-sm text-slate-500">In the listing, but no agent has ever loaded them: clutter in every routing decision.</p>
      {names.length === 0 ? (
        <p className="text-sm text-emerald-700">Every listed skill has been loaded.</p>
      ) : (
        <ul className="space-y-1 font-mono text-sm" data-testid="never-loaded">
          {names.map((name) => (
            <li key={name}>
              <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${name}`}>
                {name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function LoadedTogether({ pairs }: { pairs: ActivationView["usage"]["coLoaded"] }) {
  return (
    <Card aria-label="Co-loaded" title="Loaded together">
      <p className="mb-2 text-sm text-slate-500">
        Pairs loaded in the same sessions (last 30 days); near 100% of the rarer one&apos;s sessions, they are candidates to merge.
      </p>
      {pairs.length === 0 ? (
        <p className="text-sm text-slate-500">No pair shares two or more sessions.</p>
      ) : (
        <Table label="Pairs loaded together" testId="co-loaded">
          {pairs.map((pair) => (
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
        </Table>
      )}
    </Card>
  );
}

/** The team's prompt sets: an editor edits them here, anyone else sees their names and sizes. */
export function PromptSets({ slug, sets, canEdit }: { slug: string; sets: ActivationView["promptSets"]; canEdit: boolean }) {
  return (
    <Section
      id="prompt-sets"
      aria-label="Prompt sets"
      title="Prompt sets"
      className="scroll-mt-4"
      description={
        <>
          Cases in the JSON form <code>{"{id, prompt, expected, expectNone}"}</code>; a case&apos;s id starts with its class: D names the
          skill&apos;s keywords, P paraphrases without them, G should trigger nothing.
        </>
      }
    >
      {canEdit ? (
        <PromptSetEditor sets={sets.map(promptSetJson)} save={savePromptSetAction.bind(null, slug)} />
      ) : (
        <ul className="font-mono text-sm">
          {sets.map((set) => (
            <li key={set.name}>
              {set.name} ({set.cases.length} cases)
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
