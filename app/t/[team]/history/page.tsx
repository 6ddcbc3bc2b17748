import type { Metadata } from "next";
import { requireMember } from "@/lib/pages/member";
import { HISTORY_KINDS, promotionsByWeek, teamEvaluations, teamHistory } from "@/lib/evolution/history";
import { PromotionsChart } from "@/components/history/promotions-chart";
import { awaitingApproval } from "@/lib/evolution/amendments";
import { roleAtLeast } from "@/lib/auth/scopes";
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
  const [events, weeks, evaluations, awaiting] = await Promise.all([
    teamHistory(app.db, team.id, { skill, kind }),
    promotionsByWeek(app.db, team.id),
    teamEvaluations(app.db, team.id, skill),
    awaitingApproval(app.db, team.id, 100),
  ]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Promotion history"
        description="Every change to a skill and the evidence behind it. Evaluations are a judged comparison, not a re-execution."
      />

      <TeamApprovalQueue slug={slug} awaiting={awaiting} autoPromote={team.autoPromote} isLead={roleAtLeast(role, "lead")} />

      <Section title="Promotions and rollbacks by week">
        {weeks.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing promoted or rolled back yet.</p>
        ) : (
          <PromotionsChart weeks={weeks} />
        )}
      </Section>

      <EvaluationsSection slug={slug} evaluations={evaluations} />
      <EventsSection slug={slug} events={events} filter={{ skill, kind }} />
    </div>
  );
}
