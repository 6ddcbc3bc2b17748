import Link from "next/link";
import { percent } from "@/lib/format";
import { productionBesideRecall } from "@/lib/pages/production";
import { per100WithInterval } from "@/lib/pages/production-figures";
import type { activationOverview } from "@/lib/activation/overview";
import { FromTelemetryForm } from "@/components/activation/from-telemetry-form";
import { Section } from "@/components/ui/section";
import { Pager } from "@/components/ui/pager";
import { Table } from "@/components/ui/table";
import { pageOf } from "@/lib/paged";
import { promptSetFromTelemetryAction } from "./actions";

type ActivationView = Awaited<ReturnType<typeof activationOverview>>;
type ListHref = (list: "production", page: number, anchor: string) => string;

/**
 * Per skill, what production reports (docs/telemetry.md, last 30 days) beside the recall the latest run
 * measured: a skill the run finds but people must type has a description that works on prompt
 * sets and not on the prompts people write.
 */
export function ProductionBesideRecall({ slug, view, page, href }: { slug: string; view: ActivationView; page: number; href: ListHref }) {
  const paged = pageOf(productionBesideRecall(view.usage, view.latest?.metrics.perSkill ?? {}), page);
  const rows = paged.rows;
  return (
    <Section
      headingId="production-and-recall"
      title="In production and in evaluation"
      description={
        <>
          Last 30 days of the agents&apos; telemetry ({view.usage.prompts.toLocaleString("en-US")} prompts) beside recall in the latest run
          {view.latest ? ` (#${view.latest.id})` : ""}. Proactive: the model chose the skill from its description; typed: a person typed{" "}
          <code>/name</code>; by a skill: another skill called it. Per 100 prompts: chosen by the model per 100 of the team&apos;s prompts,
          with its 95% interval.
        </>
      }
    >
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">No activation reported and no finished run yet.</p>
      ) : (
        <Table
          label="Production beside recall"
          testId="production-recall"
          head={
            <>
              <th className="py-1">Skill</th>
              <th className="py-1 pl-3 text-right">Proactive</th>
              <th className="py-1 pl-3 text-right">Typed</th>
              <th className="py-1 pl-3 text-right">By a skill</th>
              <th className="py-1 pl-3 text-right">Per 100 prompts (95% interval)</th>
              <th className="py-1 pl-3 text-right">Recall</th>
            </>
          }
        >
          {rows.map((row) => (
            <tr key={row.name} className="border-t border-slate-100" data-production={row.name}>
              <td className="py-1.5 pr-3">
                <Link className="font-mono text-xs text-indigo-700 hover:underline" href={`/t/${slug}/skills/${row.name}#in-production`}>
                  {row.name}
                </Link>
                {row.typedOnly && (
                  <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800" data-flag="typed-only">
                    only typed
                  </span>
                )}
              </td>
              <td className="py-1.5 pl-3 text-right tabular-nums">{row.proactive}</td>
              <td className="py-1.5 pl-3 text-right tabular-nums">{row.typed}</td>
              <td className="py-1.5 pl-3 text-right tabular-nums">{row.nested}</td>
              <td className="py-1.5 pl-3 text-right whitespace-nowrap tabular-nums">{per100WithInterval(row.chosen)}</td>
              <td className="py-1.5 pl-3 text-right whitespace-nowrap tabular-nums">
                {row.recall === null ? (
                  "—"
                ) : (
                  <>
                    {percent(row.recall.recall)} <span className="text-xs text-slate-500">of {row.recall.expected}</span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {paged.pages > 1 && (
        <Pager
          paged={paged}
          noun="skills"
          label="Pages of production beside recall"
          href={(n) => href("production", n, "production-and-recall")}
        />
      )}
    </Section>
  );
}

/** An editor builds a prompt set from stored prompts; a run on it measures the catalog on what people really ask. */
export function BuildFromProduction({ slug }: { slug: string }) {
  return (
    <Section
      headingId="from-production"
      title="Build a prompt set from production"
      description={
        <>
          Each prompt people wrote becomes a case expecting the skills activated for it (chosen or typed); a prompt that activated none
          expects none. Needs prompt texts: a lead turns on &ldquo;Store prompt texts&rdquo; in{" "}
          <Link className="text-indigo-700 underline" href={`/t/${slug}/settings#telemetry`}>
            Settings → Telemetry
          </Link>{" "}
          and agents send them (Claude Code: <code>OTEL_LOG_USER_PROMPTS=1</code>).
        </>
      }
    >
      <FromTelemetryForm action={promptSetFromTelemetryAction.bind(null, slug)} />
    </Section>
  );
}
