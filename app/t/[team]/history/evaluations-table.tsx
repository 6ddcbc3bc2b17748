import Link from "next/link";
import type { teamEvaluations } from "@/lib/evolution/history";
import { AmendmentStateLine } from "@/components/history/amendment-state";
import { Section } from "@/components/ui/section";
import { Table } from "@/components/ui/table";
import { versionDiffHref } from "../team-page";
import { When } from "@/components/ui/when";
import { twoDecimals } from "@/lib/format";

type Evaluation = Awaited<ReturnType<typeof teamEvaluations>>[number];

/**
 * The team's evaluations, newest first, each named by its amendment's number — the one the queue and
 * the charts use — with its verdict linking to the evaluation, the amendment's state and what it promoted.
 */
export function EvaluationsSection({ slug, evaluations }: { slug: string; evaluations: Evaluation[] }) {
  return (
    <Section aria-label="Evaluations" title="Evaluations">
      {evaluations.length === 0 ? (
        <p className="text-sm text-slate-500">No amendment has been evaluated yet.</p>
      ) : (
        <>
          <Table
            label="Every evaluation"
            head={
              <>
                <th className="py-1">Amendment</th>
                <th className="py-1">Skill</th>
                <th className="py-1">Verdict</th>
                <th className="px-2 py-1">State</th>
                <th className="py-1 text-right">Delta</th>
                <th className="px-2 py-1 text-right">Cases improved / regressed / unchanged</th>
                <th className="px-2 py-1">Promoted</th>
                <th className="py-1">Judge</th>
                <th className="py-1">Started</th>
              </>
            }
          >
            {evaluations.map((e) => (
              <EvaluationRow key={e.id} slug={slug} evaluation={e} />
            ))}
          </Table>
          <p className="mt-2 text-xs text-slate-600" data-testid="evaluations-note">
            Delta is the mean change in case score, amended minus original (−1 to 1). The counts are the recorded runs the judge scored
            better, worse or the same: an amendment can be improved overall and still do worse on some runs.
          </p>
        </>
      )}
    </Section>
  );
}

function EvaluationRow({ slug, evaluation: e }: { slug: string; evaluation: Evaluation }) {
  return (
    <tr className="border-t border-slate-100" data-evaluation={e.id}>
      <td className="py-1.5">
        <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/amendments/${e.amendmentId}`}>
          #{e.amendmentId}
        </Link>
      </td>
      <td className="py-1.5 font-mono text-xs">{e.skillName}</td>
      <td className="py-1.5">
        <Link className="text-indigo-700 underline" href={`/t/${slug}/history/evaluations/${e.id}`}>
          {e.status === "running"
            ? `running ${e.casesDone}/${e.casesTotal}`
            : e.status === "failed"
              ? "failed"
              : (e.verdict ?? "no verdict")}
        </Link>
      </td>
      <td className="max-w-xs px-2 py-1.5 text-xs" data-amendment-status={e.amendment?.status}>
        {e.amendment && <AmendmentStateLine slug={slug} entry={e.amendment} />}
      </td>
      <td className="py-1.5 text-right tabular-nums">{twoDecimals(e.delta, { signed: true })}</td>
      <td className="px-2 py-1.5 text-right tabular-nums">
        {e.improved} / {e.regressed} / {e.unchanged}
      </td>
      <td className="px-2 py-1.5">
        {e.promotedVersion ? (
          <Link className="text-indigo-700 underline" href={versionDiffHref(slug, e.skillName, e.promotedVersion)}>
            v{e.promotedVersion}
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td className="py-1.5 font-mono text-xs">{e.modelId}</td>
      <td className="py-1.5 text-slate-600">
        <When at={e.startedAt} />
      </td>
    </tr>
  );
}
