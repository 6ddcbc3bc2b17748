import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { decisionEventCounts, HISTORY_KINDS, teamEvaluations, teamHistory } from "@/lib/evolution/history";
import { decisionsByWeek } from "@/lib/evolution/promotion-decisions";
import { evaluationBars, undrawnEvaluations } from "@/lib/evolution/evaluation-outcomes";
import { undrawnNote } from "@/components/history/undrawn-note";
import { IMPROVED_ABOVE } from "@/lib/evolution/verdict";
import { PromotionDecisionsChart } from "@/components/history/promotion-decisions-chart";
import { EvaluationDeltasChart } from "@/components/history/evaluation-deltas-chart";
import { awaitingApproval } from "@/lib/evolution/amendments";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { TeamApprovalQueue } from "../team-approval-queue";
import type { TeamPageProps } from "../team-page";
import { EvaluationsSection } from "./evaluations-table";
import { EventsSection } from "./events";

export const metadata: Metadata = { title: "Promotion history" };

export default async function HistoryPage({ params, searchParams }: TeamPageProps<object, Record<string, string | undefined>>) {
  const { team: slug } = await params;
  const query = await searchParams;
  const { app, team, role } = await requireMember(slug, `/t/${slug}/history`);
  const skill = query.skill || undefined;
  const kind = query.kind && (HISTORY_KINDS as readonly string[]).includes(query.kind) ? query.kind : undefined;
  const [events, decisions, evaluations, awaiting] = await Promise.all([
    teamHistory(app.db, team.id, { skill, kind }),
    decisionEventCounts(app.db, team.id),
    teamEvaluations(app, team, skill),
    awaitingApproval(app, team, 100),
  ]);
  const weeks = decisionsByWeek(decisions);
  const bars = evaluationBars(evaluations);
  const undrawn = undrawnNote(undrawnEvaluations(evaluations));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Promotion history"
        description="Every change to a skill and the evidence behind it. Evaluations are a judged comparison, not a re-execution."
      />

      <TeamApprovalQueue slug={slug} awaiting={awaiting} autoPromote={team.autoPromote} role={role} hasModel={app.model !== null} />

      <Section
        headingId="decisions-chart"
        title="Promotion decisions by week"
        description="Every decision on what agents get: promoted automatically, approved, overridden, rejected, not promoted after a verdict short of improved, rolled back."
      >
        {weeks.length === 0 ? (
          <p className="text-sm text-slate-500">No promotion decision yet.</p>
        ) : (
          <PromotionDecisionsChart weeks={weeks} />
        )}
      </Section>

      <Section
        headingId="deltas-chart"
        title="Evaluation deltas"
        description={`Each evaluation's delta (amended minus original case score), oldest first, labelled with its amendment's number and coloured by what became of it. A verdict of improved needs a delta above ${IMPROVED_ABOVE} and more cases improved than regressed.`}
      >
        {bars.length === 0 ? (
          <p className="text-sm text-slate-500">
            No evaluation has a delta yet.{undrawn && <span data-testid="chart-note"> {undrawn}</span>}
          </p>
        ) : (
          <EvaluationDeltasChart bars={bars} note={undrawn} />
        )}
      </Section>

      <EvaluationsSection slug={slug} evaluations={evaluations} />
      <EventsSection slug={slug} events={events} filter={{ skill, kind }} />
    </div>
  );
}
