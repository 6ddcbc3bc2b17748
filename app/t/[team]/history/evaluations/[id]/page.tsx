import { ActionMessageSlot } from "@/components/action-message";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { evaluationReport } from "@/lib/evolution/evaluate";
import { LiveRefresh } from "@/components/history/live-refresh";
import { AmendmentChangeView } from "@/components/history/amendment-change";
import { diffViewChoice } from "@/components/diff/view-choice";
import { amendmentChange } from "@/lib/evolution/amendment-change";
import { roleAtLeast } from "@/lib/auth/scopes";
import { MOVES } from "@/lib/evolution/amendment-states";
import { plottedCases } from "@/lib/evolution/case-plot";
import { CasePlotChart } from "@/components/history/case-plot-chart";
import { Section } from "@/components/ui/section";
import { notFoundOn404, type TeamPageProps } from "../../../team-page";
import {
  ApprovalSection,
  CasesSection,
  EvaluationHeader,
  JudgingProgress,
  OverrideSection,
  PatchSection,
  ReproposeSection,
  ResultFigures,
} from "./sections";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Evaluation #${(await params).id}` };
}

export default async function EvaluationPage({ params, searchParams }: TeamPageProps<{ id: string }>) {
  const { team: slug, id } = await params;
  const { app, team, role } = await requireMember(slug, `/t/${slug}/history/evaluations/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  const report = await evaluationReport(app.db, app.catalogs, team, Number(id)).catch(notFoundOn404);
  const running = report.status === "running";
  const change = await amendmentChange(app.db, app.catalogs, team, report.amendmentId);
  const { amendment } = change;
  const isLead = roleAtLeast(role, "lead");
  // Anything not judged improved that has not gone live is a lead's to override, a rejection included (docs/evaluation-and-activation.md#amendment-states).
  const overridable =
    report.status !== "running" &&
    amendment.skillSource === "learned" &&
    (MOVES.override.from as readonly string[]).includes(amendment.status);
  // An amendment applies only to the version it was written against (docs/evaluation-and-activation.md#out-of-date-amendments): once the skill has moved on, it can only be re-proposed.
  const { current } = change.entry;
  const movedOn =
    current !== null && current !== amendment.baseVersion && (MOVES.repropose.from as readonly string[]).includes(amendment.status);
  const plotted = plottedCases(report.cases);
  // The slot is above every section: approving or overriding takes its own section away.
  return (
    <ActionMessageSlot>
      <div className="space-y-6">
        <LiveRefresh running={running} />
        <EvaluationHeader slug={slug} report={report} change={change} />
        {running && <JudgingProgress report={report} />}
        <ResultFigures slug={slug} report={report} />
        {report.error && <p className="rounded-md bg-red-50 p-3 text-sm text-red-800">{report.error}</p>}
        {amendment.status === "awaiting-approval" && !movedOn && (
          <ApprovalSection slug={slug} amendmentId={report.amendmentId} isLead={isLead} role={role} />
        )}
        {movedOn && (
          <ReproposeSection
            slug={slug}
            amendment={amendment}
            current={current}
            canPropose={roleAtLeast(role, "editor")}
            hasModel={app.model !== null}
          />
        )}
        {overridable && !movedOn && (
          <OverrideSection slug={slug} report={report} amendment={amendment} gone={current === null} isLead={isLead} />
        )}
        <AmendmentChangeView
          change={change}
          diffView={diffViewChoice(`/t/${slug}/history/evaluations/${id}`, await searchParams, "amendment-change")}
        />
        {plotted.length > 0 && (
          <Section
            headingId="case-plot-heading"
            title="Case scores, original to amended"
            description="Each judged case's score with the original skill and with the amended one; regressions first."
          >
            <CasePlotChart cases={plotted} />
          </Section>
        )}
        <CasesSection cases={report.cases} />
        {report.patch && <PatchSection patch={report.patch} />}
      </div>
    </ActionMessageSlot>
  );
}
