import Link from "next/link";
import type { ActivationView, RecallPage } from "@/lib/activation/overview";
import { promptSetJson } from "@/lib/activation/prompt-sets";
import { percent } from "@/lib/format";
import { pageFrom } from "@/lib/paged";
import { MERGE_SHARE } from "@/lib/usage/usage";
import { RecallChart, RunsChart } from "@/components/activation/charts";
import { PromptSetEditor } from "@/components/activation/prompt-set-editor";
import { Card } from "@/components/ui/card";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Pager } from "@/components/ui/pager";
import { Table } from "@/components/ui/table";
import { savePromptSetAction } from "./actions";
import { When } from "@/components/ui/when";

type Run = ActivationView["runs"][number];
type Comparison = NonNullable<ActivationView["comparison"]>;

/** The page's address with one long list turned to a page, scrolled to the list (its element id). */
export type ListHref = (list: "recall" | "never" | "pairs" | "production", page: number, anchor: string) => string;

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
        value={neverLoaded.total.toLocaleString("en-US")}
        tone={neverLoaded.total > 0 ? "warn" : "good"}
        note="by any agent, ever"
      />
      <Stat label="Merge candidates" value={coLoaded.candidates.toLocaleString("en-US")} note="pairs loaded together ≥ 80% of the time" />
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

/** The latest run's recall per skill, worst first, a page of skills at a time. */
export function RecallPerSkill({ latest, recall, href }: { latest: ActivationView["latest"]; recall: RecallPage; href: ListHref }) {
  return (
    <Card id="recall" className="scroll-mt-4" title={`Recall per skill${latest ? ` (run #${latest.id})` : ""}`}>
      {recall.total === 0 ? (
        <p className="text-sm text-slate-500">No finished run yet.</p>
      ) : (
        <>
          <RecallChart points={recall.rows} />
          <Pager paged={recall} noun="skills measured" label="Pages of recall per skill" href={(page) => href("recall", page, "recall")} />
        </>
      )}
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

export function NeverLoaded({ slug, names, href }: { slug: string; names: ActivationView["usage"]["neverLoaded"]; href: ListHref }) {
  return (
    <Card id="never-loaded" className="scroll-mt-4" aria-label="Never loaded" title="Never loaded">
      <p className="mb-2 text-sm text-slate-500">In the listing, but no agent has ever loaded them: clutter in every routing decision.</p>
      {names.total === 0 ? (
        <p className="text-sm text-emerald-700">Every listed skill has been loaded.</p>
      ) : (
        <>
          <ul className="space-y-1 font-mono text-sm" data-testid="never-loaded">
            {names.rows.map((name) => (
              <li key={name}>
                <Link prefetch={false} className="text-indigo-700 hover:underline" href={`/t/${slug}/skills/${name}`}>
                  {name}
                </Link>
              </li>
            ))}
          </ul>
          <Pager
            paged={names}
            noun="never loaded"
            label="Pages of never-loaded skills"
            href={(page) => href("never", page, "never-loaded")}
          />
        </>
      )}
    </Card>
  );
}

export function LoadedTogether({ pairs: coLoaded, href }: { pairs: ActivationView["usage"]["coLoaded"]; href: ListHref }) {
  const pairs = pageFrom(coLoaded.pairs, coLoaded.total, coLoaded.page);
  return (
    <Card id="co-loaded" className="scroll-mt-4" aria-label="Co-loaded" title="Loaded together">
      <p className="mb-2 text-sm text-slate-500">
        Pairs loaded in the same sessions (last 30 days); near 100% of the rarer one&apos;s sessions, they are candidates to merge.
      </p>
      {pairs.total === 0 ? (
        <p className="text-sm text-slate-500">No pair shares two or more sessions.</p>
      ) : (
        <Table label="Pairs loaded together" testId="co-loaded">
          {pairs.rows.map((pair) => (
            <tr key={`${pair.a}+${pair.b}`} className="border-t border-slate-100">
              <td className="py-1 font-mono text-xs">
                {pair.a} + {pair.b}
              </td>
              <td className="py-1 pl-2 text-right whitespace-nowrap tabular-nums">{pair.sessions} sessions</td>
              <td className="py-1 pl-3 text-right tabular-nums">{Math.round(pair.share * 100)}%</td>
              <td className="py-1 pl-2">
                {pair.share >= MERGE_SHARE && (
                  <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">merge?</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {pairs.total > 0 && (
        <Pager paged={pairs} noun="pairs" label="Pages of pairs loaded together" href={(page) => href("pairs", page, "co-loaded")} />
      )}
    </Card>
  );
}

/**
 * The team's prompt sets, each with its number of cases: an editor opens one to edit here (its
 * cases come with the page only then), anyone else sees their names and sizes.
 */
export function PromptSets({
  slug,
  sets,
  editing,
  canEdit,
}: {
  slug: string;
  sets: ActivationView["promptSets"];
  editing: ActivationView["editing"];
  canEdit: boolean;
}) {
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
        <PromptSetEditor
          key={editing?.name ?? ""}
          sets={sets.map((set) => ({
            name: set.name,
            cases: set.cases,
            href: `/t/${slug}/activation?set=${encodeURIComponent(set.name)}#prompt-sets`,
          }))}
          opened={editing && promptSetJson(editing)}
          save={savePromptSetAction.bind(null, slug)}
        />
      ) : (
        <ul className="font-mono text-sm">
          {sets.map((set) => (
            <li key={set.name}>
              {set.name} ({set.cases.toLocaleString("en-US")} cases)
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
