import type { ProductionFigures, VersionFigures } from "@/lib/pages/production";
import {
  comparisonSentence,
  costPerActivation,
  duration,
  intervalScale,
  rateWithInterval,
  tokensPerActivation,
} from "@/lib/pages/production-figures";
import type { Production, Rate } from "@/lib/usage/production";
import { ActionButton } from "@/components/action-button";
import { ActionMessageSlot } from "@/components/action-message";
import { Table } from "@/components/ui/table";
import { muteToolAction, unmuteToolAction } from "./actions";

/**
 * Is the skill helping? Per version, what the agents did while it was loaded — tool failures with
 * their 95% interval drawn as a bar, calls, cost and tokens per activation, prompt time, rejections —
 * beside the prompts in which no skill was loaded; whether each version did worse than the one
 * before; and the tools that failed, which a lead may mute.
 */
export function ProductionFigures({
  slug,
  name,
  figures,
  isLead,
}: {
  slug: string;
  name: string;
  figures: ProductionFigures;
  isLead: boolean;
}) {
  const scale = intervalScale([...figures.versions.map((v) => v.production.failureRate), figures.noSkill.failureRate]);
  const baseline = figures.noSkill.failureRate?.value ?? null;
  return (
    <div id="production-figures" className="space-y-3">
      <div>
        <h3 className="mb-1 text-sm font-semibold">Is it helping? By version, while it was loaded</h3>
        <p className="mb-2 text-xs text-slate-500">
          Every prompt the agents reported since telemetry began. The bar is the 95% interval of the failure rate, the dot the rate, the
          grey line the rate with no skill loaded: bars that do not overlap differ beyond chance.
        </p>
        <Table
          label="Production by version"
          testId="production-figures"
          head={
            <>
              <th className="py-1">Version</th>
              <th className="py-1">Tool failures</th>
              <th className="py-1 text-right">Tool calls</th>
              <th className="py-1">Failures vs no skill</th>
              <th className="py-1 text-right">Prompts</th>
              <th className="py-1 text-right">Cost / activation</th>
              <th className="py-1 text-right">Tokens / activation</th>
              <th className="py-1 text-right">Median prompt</th>
              <th className="py-1 text-right">Rejections</th>
            </>
          }
        >
          {figures.versions.map((v) => (
            <FiguresRow
              key={v.version}
              id={String(v.version)}
              label={`v${v.version}`}
              production={v.production}
              scale={scale}
              baseline={baseline}
            >
              {v.failureRateVsNoSkill}
            </FiguresRow>
          ))}
          <FiguresRow id="none" label="No skill loaded" production={figures.noSkill} scale={scale} baseline={baseline} quiet>
            baseline
          </FiguresRow>
        </Table>
      </div>
      <Comparisons versions={figures.versions} />
      <ActionMessageSlot>
        <FailingTools slug={slug} name={name} figures={figures} isLead={isLead} />
      </ActionMessageSlot>
    </div>
  );
}

function FiguresRow({
  id,
  label,
  production,
  scale,
  baseline,
  quiet = false,
  children,
}: {
  id: string;
  label: string;
  production: Production;
  scale: number;
  baseline: number | null;
  quiet?: boolean;
  children: React.ReactNode;
}) {
  return (
    <tr className={`border-t border-slate-100 ${quiet ? "bg-slate-50 text-slate-700" : ""}`} data-figures={id}>
      <td className="py-1.5">{label}</td>
      <td className="py-1.5">
        <span className="flex items-center gap-2 whitespace-nowrap">
          <span className="min-w-36 tabular-nums">{rateWithInterval(production.failureRate)}</span>
          <IntervalBar rate={production.failureRate} scale={scale} baseline={baseline} tone={quiet ? "baseline" : "failure"} />
        </span>
      </td>
      <td className="py-1.5 text-right tabular-nums">{production.toolCalls.toLocaleString("en-US")}</td>
      <td className="py-1.5 whitespace-nowrap">{children}</td>
      <td className="py-1.5 text-right tabular-nums">{production.prompts.toLocaleString("en-US")}</td>
      <td className="py-1.5 text-right tabular-nums">{costPerActivation(production)}</td>
      <td className="py-1.5 text-right tabular-nums">{tokensPerActivation(production)}</td>
      <td className="py-1.5 text-right whitespace-nowrap tabular-nums">{duration(production.medianPromptMs)}</td>
      <td className="py-1.5 text-right tabular-nums">{production.rejections}</td>
    </tr>
  );
}

/** The bar's colours: a failure rate's rose, the no-skill baseline's slate, a rate of being chosen indigo. */
const TONES = {
  failure: { interval: "bg-rose-300", dot: "bg-rose-700" },
  baseline: { interval: "bg-slate-400", dot: "bg-slate-600" },
  chosen: { interval: "bg-indigo-300", dot: "bg-indigo-700" },
} as const;

/** The interval as a bar on a track from 0 to `scale`, the rate as a dot, the no-skill rate as a line: looked at, not read. */
export function IntervalBar({
  rate,
  scale,
  baseline,
  tone,
}: {
  rate: Rate | null;
  scale: number;
  baseline: number | null;
  tone: keyof typeof TONES;
}) {
  const at = (share: number) => `${Math.min(100, (share / scale) * 100)}%`;
  return (
    <span aria-hidden className="relative inline-block h-3 w-24 shrink-0 rounded-sm bg-slate-100" data-interval-bar>
      {rate && (
        <>
          <span
            className={`absolute top-1 h-1 rounded-sm ${TONES[tone].interval}`}
            style={{ left: at(rate.low), width: `max(2px, calc(${at(rate.high)} - ${at(rate.low)}))` }}
          />
          <span className={`absolute top-0.5 h-2 w-2 -translate-x-1/2 rounded-full ${TONES[tone].dot}`} style={{ left: at(rate.value) }} />
        </>
      )}
      {baseline !== null && <span className="absolute top-0 h-3 w-px bg-slate-500" style={{ left: at(baseline) }} />}
    </span>
  );
}

/** "Did v2 make things worse than v1?", newest first, answered for every version that has one before it. */
function Comparisons({ versions }: { versions: VersionFigures[] }) {
  const pairs = versions.flatMap((v, i) => {
    const previous = versions[i - 1];
    return previous && v.failureRateVsPrevious ? [{ current: v, previous, comparison: v.failureRateVsPrevious }] : [];
  });
  if (pairs.length === 0) return null;
  return (
    <ul className="space-y-1 text-sm">
      {pairs.reverse().map(({ current, previous, comparison }) => (
        <li key={current.version} data-comparison={current.version} className={comparison === "higher" ? "text-rose-800" : ""}>
          <span className="font-semibold">
            Did v{current.version} make things worse than v{previous.version}?
          </span>{" "}
          <span data-answer>{comparisonSentence(comparison, current, previous)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The tools that failed while each version was loaded, with the error each first said; a lead mutes and unmutes them here. */
function FailingTools({ slug, name, figures, isLead }: { slug: string; name: string; figures: ProductionFigures; isLead: boolean }) {
  const failing = figures.versions.filter((v) => v.failingTools.length > 0).reverse();
  const muted = new Set(figures.mutedTools);
  return (
    <div className="space-y-2 text-sm">
      <h3 className="text-sm font-semibold">Tools that failed while it was loaded</h3>
      {failing.length === 0 ? (
        <p className="text-slate-600" data-testid="failing-none">
          No tool failed while {name} was loaded.
        </p>
      ) : (
        <>
          {!figures.storesPrompts && (
            <p className="text-xs text-slate-600" data-testid="errors-not-kept">
              No error texts: a tool&apos;s error can quote what it worked on, so it is kept only while the team keeps prompt texts
              (Settings → Telemetry, &ldquo;store prompts&rdquo;).
            </p>
          )}
          {failing.map((v) => (
            <div key={v.version} data-failing-version={v.version}>
              <h4 className="text-xs font-medium text-slate-500">while v{v.version} was loaded</h4>
              <ul className="divide-y divide-slate-100">
                {v.failingTools.map((tool) => (
                  <li key={tool.tool} className="flex flex-wrap items-baseline gap-x-2 gap-y-1 py-1" data-failing-tool={tool.tool}>
                    <span className="font-mono text-xs font-semibold">{tool.tool}</span>
                    <span className="text-slate-600">
                      failed {tool.failures} time{tool.failures === 1 ? "" : "s"}
                    </span>
                    {tool.error !== null ? (
                      <code className="min-w-0 basis-full break-words text-xs text-rose-900 sm:basis-auto">{tool.error}</code>
                    ) : (
                      figures.storesPrompts && <span className="text-xs text-slate-500">no error text</span>
                    )}
                    {muted.has(tool.tool) ? (
                      <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">muted</span>
                    ) : (
                      isLead && (
                        <span className="ml-auto">
                          <ActionButton
                            label="Mute"
                            name={`Mute ${tool.tool}`}
                            size="xs"
                            confirm={`Mute ${tool.tool} for ${name}? Its failures while ${name} is loaded will make no observation of it (say, Bash running the agent's own tests). The figures above still count them.`}
                            action={muteToolAction.bind(null, slug, name, tool.tool)}
                          />
                        </span>
                      )
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
      <MutedTools slug={slug} name={name} muted={figures.mutedTools} isLead={isLead} />
    </div>
  );
}

function MutedTools({ slug, name, muted, isLead }: { slug: string; name: string; muted: string[]; isLead: boolean }) {
  if (muted.length === 0) return null;
  return (
    <div data-testid="muted-tools">
      <p className="text-xs text-slate-600">
        Muted: their failures make no observation of {name}, so amendments do not learn from them. The figures above still count them.
      </p>
      <ul className="mt-1 flex flex-wrap gap-2">
        {muted.map((tool) => (
          <li key={tool} className="flex items-center gap-2 rounded border border-slate-200 px-2 py-0.5" data-muted-tool={tool}>
            <span className="font-mono text-xs">{tool}</span>
            {isLead && (
              <ActionButton
                label="Unmute"
                name={`Unmute ${tool}`}
                size="xs"
                confirm={`Unmute ${tool} for ${name}? Its failures while ${name} is loaded will make observations again.`}
                action={unmuteToolAction.bind(null, slug, name, tool)}
              />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
