import type { SkillInProduction } from "@/lib/pages/production";
import { PRODUCTION_DAYS } from "@/lib/pages/production";
import { ConnectTelemetry } from "@/components/connect-telemetry";
import { ProductionChart } from "@/components/skill/production-chart";
import { Section } from "@/components/ui/section";
import { Table } from "@/components/ui/table";
import { chosenRate, intervalScale, per100WithInterval } from "@/lib/pages/production-figures";
import { IntervalBar, ProductionFigures } from "./production-figures";

/**
 * The skill as the agents' telemetry reports it (docs/telemetry.md): who chose it day by day, and per version
 * how often the model chose it per 100 of the team's prompts. People are named to leads only;
 * everyone else sees how many (issue 26).
 */
export function ProductionSection({
  slug,
  name,
  production,
  isLead,
  origin,
}: {
  slug: string;
  name: string;
  production: SkillInProduction;
  isLead: boolean;
  /** This server's address, for the settings that connect an agent. */
  origin: string;
}) {
  const totals = production.chart.reduce(
    (sum, day) => ({ proactive: sum.proactive + day.proactive, typed: sum.typed + day.typed, nested: sum.nested + day.nested }),
    { proactive: 0, typed: 0, nested: 0 },
  );
  return (
    <Section
      headingId="in-production"
      title="In production"
      description={`What the agents' telemetry reported over the last ${PRODUCTION_DAYS} days: whether the model chose the skill from its description, a person typed /${name}, or another skill called it.`}
    >
      {!production.connected ? (
        <>
          <p className="mb-3 text-sm text-slate-600">No telemetry has reached Skillgate from this team&apos;s agents yet.</p>
          <ConnectTelemetry slug={slug} origin={origin} />
        </>
      ) : production.days.length === 0 ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-600" data-testid="production-none">
            No agent reported activating {name} in the last {PRODUCTION_DAYS} days.
          </p>
          {production.figures.versions.some((v) => v.production.prompts > 0) && (
            <ProductionFigures slug={slug} name={name} figures={production.figures} isLead={isLead} />
          )}
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm" data-testid="production-totals">
            {totals.proactive} chosen by the model · {totals.typed} typed · {totals.nested} called by a skill
          </p>
          {totals.proactive === 0 && totals.typed > 0 && (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-flag="typed-only">
              Only typed: the model never chose it, so its description does not make the model reach for it. Say in the description what it
              does and when to use it, in the words people ask with.
            </p>
          )}
          <ProductionChart days={production.chart} markers={production.markers} />
          <VersionRates versions={production.versions} />
          <ProductionFigures slug={slug} name={name} figures={production.figures} isLead={isLead} />
          <People people={production.people} count={production.peopleCount} isLead={isLead} />
        </div>
      )}
    </Section>
  );
}

/** Per version, proactive activations per 100 prompts while it was live, with its interval drawn to compare them at a glance. */
function VersionRates({ versions }: { versions: SkillInProduction["versions"] }) {
  const rates = versions.map((v) => chosenRate(v.proactive, v.prompts));
  const scale = intervalScale(rates);
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold">Chosen by the model per 100 prompts, by version</h3>
      <p className="mb-2 text-xs text-slate-500">
        Did a new description make the model choose it more often? Each version counts the team&apos;s prompts on the days it was live; the
        bar is the 95% interval, the dot the rate: bars that do not overlap differ beyond chance.
      </p>
      <Table
        label="Chosen by the model per version"
        testId="production-versions"
        head={
          <>
            <th className="py-1 pr-3">Version</th>
            <th className="py-1 pr-3">Per 100 prompts (95% interval)</th>
            <th className="py-1 pr-3 text-right">Chosen</th>
            <th className="py-1 pr-3 text-right">Prompts</th>
            <th className="py-1">Live</th>
          </>
        }
      >
        {versions.map((v, i) => (
          <tr key={v.version} className="border-t border-slate-100" data-version={v.version}>
            <td className="py-1.5 pr-3 tabular-nums">v{v.version}</td>
            <td className="py-1.5 pr-3">
              <span className="flex items-center gap-2 whitespace-nowrap">
                <span className="min-w-28 tabular-nums">{per100WithInterval(rates[i] ?? null)}</span>
                <IntervalBar rate={rates[i] ?? null} scale={scale} baseline={null} tone="chosen" />
              </span>
            </td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{v.proactive}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{v.prompts}</td>
            <td className="py-1.5 whitespace-nowrap text-slate-600">{v.to < v.from ? "replaced the same day" : `${v.from} – ${v.to}`}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** Who used it: names for a lead, a count for everyone else. */
function People({ people, count: n, isLead }: { people: SkillInProduction["people"]; count: number; isLead: boolean }) {
  const count = `${n} ${n === 1 ? "person" : "people"}`;
  if (!isLead || people.length === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="production-people">
        {count} activated it in the last {PRODUCTION_DAYS} days.
      </p>
    );
  }
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold">
        {count} activated it in the last {PRODUCTION_DAYS} days
      </h3>
      <ul className="space-y-0.5 text-sm" data-testid="production-people">
        {people.map((p) => (
          <li key={p.name} data-person={p.name}>
            <span className={p.unknown ? "text-slate-700 italic" : "font-mono text-xs"}>{p.name}</span>{" "}
            <span className="text-slate-500">
              · on {p.days} day{p.days === 1 ? "" : "s"}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
