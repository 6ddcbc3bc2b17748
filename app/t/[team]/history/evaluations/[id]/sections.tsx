import Link from "next/link";
import type { Role } from "@/lib/auth/scopes";
import { JUDGED_NOT_RUN, type evaluationReport } from "@/lib/evolution/evaluate";
import type { AmendmentChange } from "@/lib/evolution/amendment-change";
import { caseScore } from "@/lib/evolution/verdict";
import { twoDecimals } from "@/lib/format";
import { ApprovalForms, ReasonForm } from "@/components/history/approval-forms";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";
import {
  approveAmendmentAction,
  overrideAmendmentAction,
  rejectAmendmentAction,
  reproposeAmendmentAction,
} from "../../../amendment-actions";
import { ReproposeButton } from "@/components/history/repropose-button";
import { versionDiffHref } from "../../../team-page";

type Report = Awaited<ReturnType<typeof evaluationReport>>;

const DIMENSIONS = ["correctness", "completeness", "adherence"] as const;

/** What was evaluated, the amendment's state, and a plain word that this is a judgement, not a run. */
export function EvaluationHeader({ slug, report, change }: { slug: string; report: Report; change: AmendmentChange }) {
  return (
    <PageHeader
      back={{ href: `/t/${slug}/history`, label: "Promotion history" }}
      title={
        <>
          <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/amendments/${report.amendmentId}`}>
            Amendment #{report.amendmentId}
          </Link>{" "}
          (evaluation #{report.id}) to{" "}
          <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${report.skill}`}>
            {report.skill}
          </Link>
        </>
      }
    >
      <p className="mt-1 text-sm" data-testid="amendment-status">
        Amendment: <AmendmentStateLine slug={slug} entry={change.entry} />
      </p>
      <p className="mt-2 rounded-md bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-900" data-testid="judged-note">
        This is {JUDGED_NOT_RUN}: a judge model ({report.modelId}, prompt {report.promptVersion}) read each recorded task and scored how the
        original and the amended skill would handle it.
      </p>
    </PageHeader>
  );
}

export function JudgingProgress({ report }: { report: Report }) {
  return (
    <Card data-testid="progress">
      <div className="mb-1 text-sm">
        Judging case {report.casesDone} of {report.casesTotal}…
      </div>
      <div className="h-2 w-full rounded bg-slate-100">
        <div
          className="h-2 rounded bg-indigo-600"
          style={{ width: `${report.casesTotal === 0 ? 0 : (report.casesDone / report.casesTotal) * 100}%` }}
        />
      </div>
    </Card>
  );
}

export function ResultFigures({ slug, report }: { slug: string; report: Report }) {
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-5" aria-label="Result">
      <Stat
        label="Verdict"
        value={report.verdict ?? report.status}
        tone={report.verdict === "improved" ? "good" : report.verdict === "regressed" ? "warn" : "plain"}
      />
      <Stat label="Delta" value={twoDecimals(report.delta, { signed: true })} note="mean of amended − original case score" />
      <Stat
        label="Improved / regressed / unchanged"
        value={`${report.improved} / ${report.regressed} / ${report.unchanged}`}
        note="recorded runs scored better / worse / the same"
      />
      <Stat label="Failed to judge" value={String(report.failedToJudge)} tone={report.failedToJudge > 0 ? "warn" : "plain"} />
      <Stat
        label="Promoted"
        value={
          report.promotedVersion ? (
            <Link className="text-indigo-700 underline" href={versionDiffHref(slug, report.skill, report.promotedVersion)}>
              v{report.promotedVersion}
            </Link>
          ) : (
            "no"
          )
        }
        note={report.promotionNote ?? undefined}
      />
    </section>
  );
}

/** Judged improved while auto-promotion is off: a lead approves or rejects it here. */
export function ApprovalSection({ slug, amendmentId, isLead, role }: { slug: string; amendmentId: number; isLead: boolean; role: Role }) {
  return (
    <section className="rounded-lg border border-amber-300 bg-amber-50 p-4" aria-labelledby="approval">
      <h2 id="approval" className="mb-1 font-semibold text-amber-950">
        Awaiting a lead&apos;s approval
      </h2>
      <p className="mb-3 text-sm text-amber-950">
        The judge found this amendment improved, and auto-promotion is off for this team: nothing goes live until a lead approves it.
      </p>
      {isLead ? (
        <ApprovalForms
          amendmentId={amendmentId}
          approve={approveAmendmentAction.bind(null, slug, amendmentId)}
          reject={rejectAmendmentAction.bind(null, slug, amendmentId)}
        />
      ) : (
        <p className="text-sm text-amber-950">You are {role}: ask a lead of the team.</p>
      )}
    </section>
  );
}

/** A lead puts an amendment live against its verdict (or its rejection), with a reason, while the skill is still where it was written. */
export function OverrideSection({
  slug,
  report,
  amendment,
  gone,
  isLead,
}: {
  slug: string;
  report: Report;
  amendment: AmendmentChange["amendment"];
  /** The skill is gone from the catalog. */
  gone: boolean;
  isLead: boolean;
}) {
  const rejected = amendment.status === "rejected";
  return (
    <Section headingId="override" title={rejected ? "Override the rejection" : "Override the verdict"}>
      {gone ? (
        <p className="text-sm text-slate-600" data-testid="gone">
          {amendment.skillName} is no longer in the catalog: this amendment cannot be put live.
        </p>
      ) : isLead ? (
        <ReasonForm
          name="Override"
          label={
            rejected
              ? "It was rejected. Put it live anyway, saying why (a manual override, recorded in the history beside the rejection):"
              : `The judge found this amendment ${report.verdict ?? "nothing"}. Put it live anyway, saying why (a manual override, recorded in the history):`
          }
          button="Override and put live"
          action={overrideAmendmentAction.bind(null, slug, report.amendmentId, amendment.status)}
        />
      ) : (
        <p className="text-sm text-slate-600">Only a lead can put it live anyway, with a written reason (a manual override).</p>
      )}
    </Section>
  );
}

/**
 * The skill moved past the version the amendment was written against (docs/evaluation-and-activation.md#out-of-date-amendments): it can no longer be
 * approved or put live as it is, only re-proposed against the current version.
 */
export function ReproposeSection({
  slug,
  amendment,
  current,
  canPropose,
  hasModel,
}: {
  slug: string;
  amendment: AmendmentChange["amendment"];
  current: number;
  canPropose: boolean;
  hasModel: boolean;
}) {
  return (
    <Section headingId="repropose" title="Out of date">
      <p className="mb-3 text-sm text-slate-700" data-testid="moved-on">
        {amendment.skillName} has moved on from v{amendment.baseVersion} to v{current} since this amendment was written: it can no longer be
        approved or put live as it is. Re-proposed, its change is applied to the text of v{current} as a new amendment to evaluate.
      </p>
      {canPropose ? (
        <ReproposeButton
          amendmentId={amendment.id}
          current={current}
          hasModel={hasModel}
          repropose={reproposeAmendmentAction.bind(null, slug, amendment.id)}
        />
      ) : (
        <p className="text-sm text-slate-600">Viewers cannot re-propose it: ask an editor or a lead of the team.</p>
      )}
    </Section>
  );
}

/** Each recorded task the judge scored: the three dimensions before and after, the case score, and why. */
export function CasesSection({ cases }: { cases: Report["cases"] }) {
  return (
    <Section flush aria-label="Cases">
      <Table
        label="Every case the judge scored"
        tableLabel="Cases"
        testId="cases"
        boxed
        head={
          <>
            <th className="px-2 py-2">Task</th>
            <th className="px-2 py-2">Outcome</th>
            {DIMENSIONS.map((d) => (
              <th key={d} className="px-2 py-2 text-right">
                {d}
                <br />
                original → amended
              </th>
            ))}
            <th className="px-2 py-2 text-right">Case score</th>
            <th className="px-2 py-2">Change</th>
            <th className="px-2 py-2">Judge&apos;s rationale</th>
          </>
        }
      >
        {cases.map((c) => (
          <CaseRow key={c.observationId} judged={c} />
        ))}
      </Table>
      {cases.length === 0 && (
        <p className="p-4 text-sm text-slate-500">No test cases: the skill has no recorded runs, so the verdict is inconclusive.</p>
      )}
    </Section>
  );
}

function CaseRow({ judged: c }: { judged: Report["cases"][number] }) {
  return (
    <tr className="border-t border-slate-100 align-top" data-case={c.observationId}>
      <td className="max-w-xs whitespace-pre-wrap px-2 py-2">{c.task}</td>
      <td className="px-2 py-2">{c.outcome}</td>
      {DIMENSIONS.map((d) => (
        <td key={d} className="px-2 py-2 text-right whitespace-nowrap tabular-nums" data-dimension={d}>
          {c.original && c.amended ? `${twoDecimals(c.original[d])} → ${twoDecimals(c.amended[d])}` : "—"}
        </td>
      ))}
      <td className="px-2 py-2 text-right whitespace-nowrap tabular-nums">
        {c.original && c.amended ? `${twoDecimals(caseScore(c.original))} → ${twoDecimals(caseScore(c.amended))}` : "—"}
      </td>
      <td className="px-2 py-2" data-change={c.change ?? c.status}>
        {c.status === "judged" ? c.change : c.status === "pending" ? "waiting…" : "failed to judge"}
      </td>
      <td className="max-w-md whitespace-pre-wrap px-2 py-2 text-slate-700">{c.rationale ?? c.error ?? ""}</td>
    </tr>
  );
}

export function PatchSection({ patch }: { patch: string }) {
  return (
    <Section title="Patch to apply in the repository">
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" data-testid="patch">
        {patch}
      </pre>
    </Section>
  );
}
