import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/pages/member";
import { isAppError } from "@/lib/errors";
import { evaluationReport, JUDGED_NOT_RUN } from "@/lib/evolution/evaluate";
import { caseScore } from "@/lib/evolution/verdict";
import { LiveRefresh } from "@/components/history/live-refresh";
import { Stat } from "@/components/stat";
import { ApprovalForms, ReasonForm } from "@/components/history/approval-forms";
import { AmendmentChangeView } from "@/components/history/amendment-change";
import { amendmentChange } from "@/lib/evolution/amendment-change";
import { latestVersionOf } from "@/lib/skills/catalog";
import { resolveSkill } from "@/lib/skills/view";
import { roleAtLeast } from "@/lib/auth/scopes";
import { approveAmendmentAction, overrideAmendmentAction, rejectAmendmentAction } from "../../../amendment-actions";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { MOVES } from "@/lib/evolution/amendment-states";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Evaluation #${(await params).id}` };
}

const DIMENSIONS = ["correctness", "completeness", "adherence"] as const;

export default async function EvaluationPage({ params }: { params: Promise<{ team: string; id: string }> }) {
  const { team: slug, id } = await params;
  const { app, team, role } = await requireMember(slug, `/t/${slug}/history/evaluations/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  const report = await evaluationReport(app.db, app.catalogs, team, Number(id)).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404) notFound();
    throw error;
  });
  const running = report.status === "running";
  const change = await amendmentChange(app.db, app.catalogs, team, report.amendmentId);
  const { amendment } = change;
  const isLead = roleAtLeast(role, "lead");
  // Anything not judged improved that has not gone live is a lead's to override, a rejection included (§8.4).
  const overridable =
    report.status !== "running" &&
    amendment.skillSource === "learned" &&
    (MOVES.override.from as readonly string[]).includes(amendment.status);
  // An amendment applies only to the version it was written against (§8.4): once the skill has moved on, it can only be proposed again.
  const skill = overridable ? await resolveSkill(app.catalogs, team, amendment.skillName).catch(() => null) : null;
  const latest = skill ? latestVersionOf(skill) : null;
  return (
    <div className="space-y-6">
      <LiveRefresh running={running} />
      <div>
        <Link href={`/t/${slug}/history`} className="text-sm text-indigo-700 hover:underline">
          ← Promotion history
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">
          Evaluation #{report.id} of{" "}
          <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/amendments/${report.amendmentId}`}>
            amendment #{report.amendmentId}
          </Link>{" "}
          to{" "}
          <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${report.skill}`}>
            {report.skill}
          </Link>
        </h1>
        <p className="mt-1 text-sm" data-testid="amendment-status">
          Amendment: <AmendmentStateLine entry={change.entry} />
        </p>
        <p className="mt-2 rounded-md bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-900" data-testid="judged-note">
          This is {JUDGED_NOT_RUN}: a judge model ({report.modelId}, prompt {report.promptVersion}) read each recorded task and scored how
          the original and the amended skill would handle it.
        </p>
      </div>

      {running && (
        <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="progress">
          <div className="mb-1 text-sm">
            Judging case {report.casesDone} of {report.casesTotal}…
          </div>
          <div className="h-2 w-full rounded bg-slate-100">
            <div
              className="h-2 rounded bg-indigo-600"
              style={{ width: `${report.casesTotal === 0 ? 0 : (report.casesDone / report.casesTotal) * 100}%` }}
            />
          </div>
        </div>
      )}

      <section className="grid grid-cols-2 gap-4 md:grid-cols-5" aria-label="Result">
        <Stat
          label="Verdict"
          value={report.verdict ?? report.status}
          tone={report.verdict === "improved" ? "good" : report.verdict === "regressed" ? "warn" : "plain"}
        />
        <Stat label="Delta" value={report.delta === null ? "—" : report.delta.toFixed(3)} note="mean of amended − original case score" />
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
              <Link
                className="text-indigo-700 underline"
                href={`/t/${slug}/skills/${report.skill}?from=${report.promotedVersion - 1}&to=${report.promotedVersion}#diff`}
              >
                v{report.promotedVersion}
              </Link>
            ) : (
              "no"
            )
          }
          note={report.promotionNote ?? undefined}
        />
      </section>
      {report.error && <p className="rounded-md bg-red-50 p-3 text-sm text-red-800">{report.error}</p>}

      {amendment.status === "awaiting-approval" && (
        <section className="rounded-lg border border-amber-300 bg-amber-50 p-4" aria-labelledby="approval">
          <h2 id="approval" className="mb-1 font-semibold text-amber-950">
            Awaiting a lead&apos;s approval
          </h2>
          <p className="mb-3 text-sm text-amber-950">
            The judge found this amendment improved, and auto-promotion is off for this team: nothing goes live until a lead approves it.
          </p>
          {isLead ? (
            <ApprovalForms
              amendmentId={report.amendmentId}
              approve={approveAmendmentAction.bind(null, slug, report.amendmentId)}
              reject={rejectAmendmentAction.bind(null, slug, report.amendmentId)}
            />
          ) : (
            <p className="text-sm text-amber-950">You are {role}: ask a lead of the team.</p>
          )}
        </section>
      )}

      {overridable && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="override">
          <h2 id="override" className="mb-1 font-semibold">
            {amendment.status === "rejected" ? "Override the rejection" : "Override the verdict"}
          </h2>
          {latest !== amendment.baseVersion ? (
            <p className="text-sm text-slate-600" data-testid="moved-on">
              {latest === null
                ? `${amendment.skillName} is no longer in the catalog: this amendment cannot be put live.`
                : `${amendment.skillName} has moved on from v${amendment.baseVersion} to v${latest} since: this amendment can no longer be put live. Propose it again against v${latest} to have it judged.`}
            </p>
          ) : isLead ? (
            <ReasonForm
              name="Override"
              label={
                amendment.status === "rejected"
                  ? "It was rejected. Put it live anyway, saying why (a manual override, recorded in the history beside the rejection):"
                  : `The judge found this amendment ${report.verdict ?? "nothing"}. Put it live anyway, saying why (a manual override, recorded in the history):`
              }
              button="Override and put live"
              action={overrideAmendmentAction.bind(null, slug, report.amendmentId, amendment.status)}
            />
          ) : (
            <p className="text-sm text-slate-600">Only a lead can put it live anyway, with a written reason (a manual override).</p>
          )}
        </section>
      )}

      <AmendmentChangeView change={change} />

      <section className="overflow-x-auto rounded-lg border border-slate-200 bg-white" aria-label="Cases">
        <table className="w-full text-sm" data-testid="cases" tabIndex={0} aria-label="Cases">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
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
            </tr>
          </thead>
          <tbody>
            {report.cases.map((c) => (
              <tr key={c.observationId} className="border-t border-slate-100 align-top" data-case={c.observationId}>
                <td className="max-w-xs whitespace-pre-wrap px-2 py-2">{c.task}</td>
                <td className="px-2 py-2">{c.outcome}</td>
                {DIMENSIONS.map((d) => (
                  <td key={d} className="px-2 py-2 text-right tabular-nums" data-dimension={d}>
                    {c.original && c.amended ? `${c.original[d]} → ${c.amended[d]}` : "—"}
                  </td>
                ))}
                <td className="px-2 py-2 text-right tabular-nums">
                  {c.original && c.amended ? `${caseScore(c.original).toFixed(3)} → ${caseScore(c.amended).toFixed(3)}` : "—"}
                </td>
                <td className="px-2 py-2" data-change={c.change ?? c.status}>
                  {c.status === "judged" ? c.change : c.status === "pending" ? "waiting…" : "failed to judge"}
                </td>
                <td className="max-w-md whitespace-pre-wrap px-2 py-2 text-slate-700">{c.rationale ?? c.error ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {report.cases.length === 0 && (
          <p className="p-4 text-sm text-slate-500">No test cases: the skill has no recorded runs, so the verdict is inconclusive.</p>
        )}
      </section>

      {report.patch && (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-2 font-semibold">Patch to apply in the repository</h2>
          <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" data-testid="patch">
            {report.patch}
          </pre>
        </section>
      )}
    </div>
  );
}
