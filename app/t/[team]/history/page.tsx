import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/pages/member";
import { HISTORY_KINDS, promotionsByWeek, teamEvaluations, teamHistory, type HistoryEvent } from "@/lib/evolution/history";
import { PromotionsChart } from "@/components/history/promotions-chart";
import { awaitingApproval } from "@/lib/evolution/amendments";
import { roleAtLeast } from "@/lib/auth/scopes";
import { TeamApprovalQueue } from "../team-approval-queue";
import { AmendmentStateLine } from "@/components/history/amendment-state";

export const metadata: Metadata = { title: "Promotion history" };

const KIND_STYLE: Record<string, string> = {
  promoted: "bg-emerald-100 text-emerald-900",
  approved: "bg-emerald-100 text-emerald-900",
  rejected: "bg-red-100 text-red-900",
  pinned: "bg-violet-100 text-violet-900",
  unpinned: "bg-violet-100 text-violet-900",
  overridden: "bg-amber-100 text-amber-900",
  "rolled-back": "bg-red-100 text-red-900",
  evaluated: "bg-indigo-100 text-indigo-900",
  amended: "bg-sky-100 text-sky-900",
  verified: "bg-teal-100 text-teal-900",
};

export default async function HistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
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
      <div>
        <h1 className="text-2xl font-semibold">Promotion history</h1>
        <p className="text-sm text-slate-500">
          Every change to a skill and the evidence behind it. Evaluations are a judged comparison, not a re-execution.
        </p>
      </div>

      <TeamApprovalQueue slug={slug} awaiting={awaiting} autoPromote={team.autoPromote} isLead={roleAtLeast(role, "lead")} />

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Promotions and rollbacks by week</h2>
        {weeks.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing promoted or rolled back yet.</p>
        ) : (
          <PromotionsChart weeks={weeks} />
        )}
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Evaluations">
        <h2 className="mb-2 font-semibold">Evaluations</h2>
        {evaluations.length === 0 ? (
          <p className="text-sm text-slate-500">No amendment has been evaluated yet.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1">#</th>
                <th className="py-1">Skill</th>
                <th className="py-1">Verdict</th>
                <th className="px-2 py-1">Amendment</th>
                <th className="py-1 text-right">Delta</th>
                <th className="px-2 py-1 text-right">Cases improved / regressed / unchanged</th>
                <th className="px-2 py-1">Promoted</th>
                <th className="py-1">Judge</th>
                <th className="py-1">Started</th>
              </tr>
            </thead>
            <tbody>
              {evaluations.map((e) => (
                <tr key={e.id} className="border-t border-slate-100" data-evaluation={e.id}>
                  <td className="py-1.5">
                    <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${e.id}`}>
                      #{e.id}
                    </Link>
                  </td>
                  <td className="py-1.5 font-mono text-xs">{e.skillName}</td>
                  <td className="py-1.5">
                    {e.status === "running" ? `running ${e.casesDone}/${e.casesTotal}` : e.status === "failed" ? "failed" : e.verdict}
                  </td>
                  <td className="max-w-xs px-2 py-1.5 text-xs" data-amendment-status={e.amendment?.status}>
                    <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${e.amendmentId}`}>
                      #{e.amendmentId}
                    </Link>{" "}
                    {e.amendment && <AmendmentStateLine entry={e.amendment} />}
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{e.delta === null ? "—" : e.delta.toFixed(3)}</td>
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
                  <td className="py-1.5 text-slate-600">{e.startedAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {evaluations.length > 0 && (
          <p className="mt-2 text-xs text-slate-600" data-testid="evaluations-note">
            Delta is the mean change in case score, amended minus original (−1 to 1). The counts are the recorded runs the judge scored
            better, worse or the same: an amendment can be improved overall and still do worse on some runs.
          </p>
        )}
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Events">
        <form className="mb-3 flex flex-wrap items-end gap-3" method="get">
          <h2 className="mr-auto font-semibold">Events</h2>
          <label className="text-sm">
            Skill
            <input
              name="skill"
              defaultValue={skill ?? ""}
              placeholder="any skill"
              className="mt-1 block w-48 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
            />
          </label>
          <label className="text-sm">
            Kind
            <select name="kind" defaultValue={kind ?? ""} className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm">
              <option value="">any kind</option>
              {HISTORY_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <button className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">Filter</button>
        </form>
        {events.length === 0 ? (
          <p className="text-sm text-slate-500">No events match.</p>
        ) : (
          <ol className="space-y-2" data-testid="events">
            {events.map((event) => (
              <EventLine key={event.id} slug={slug} event={event} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** Events about a proposed change, not a version: they open the amendment, not a version's diff. */
const ABOUT_AN_AMENDMENT = new Set(["amended", "evaluated", "rejected"]);

/** The skill page's side-by-side diff of a version against the one before it, scrolled into view. */
function versionDiffHref(slug: string, skill: string, version: number): string {
  return `/t/${slug}/skills/${skill}?from=${version - 1}&to=${version}#diff`;
}

function EventLine({ slug, event }: { slug: string; event: HistoryEvent }) {
  const detail = event.detail as {
    evaluationId?: number;
    amendmentId?: number;
    verdict?: string;
    overrideReason?: string;
    revertOf?: number;
    reason?: string;
    tier?: string;
    status?: string;
  };
  return (
    <li
      className="flex flex-wrap items-baseline gap-2 border-b border-slate-100 pb-2 text-sm"
      data-event={event.kind}
      data-skill={event.skill}
    >
      <span className="w-36 shrink-0 text-xs text-slate-500">{event.at.slice(0, 16).replace("T", " ")}</span>
      <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${KIND_STYLE[event.kind] ?? "bg-slate-100 text-slate-800"}`}>
        {event.kind}
      </span>
      <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${event.skill}`}>
        {event.skill}
      </Link>
      {event.version !== null && <span className="text-slate-600">v{event.version}</span>}
      {detail.verdict && <span>verdict {detail.verdict}</span>}
      {detail.revertOf !== undefined && <span>back to v{detail.revertOf}</span>}
      {detail.tier && <span>tier {detail.tier}</span>}
      {detail.overrideReason && <span className="text-amber-900">reason: “{detail.overrideReason}”</span>}
      {event.version !== null && event.version > 1 && !ABOUT_AN_AMENDMENT.has(event.kind) && (
        <Link className="text-indigo-700 underline" href={versionDiffHref(slug, event.skill, event.version)}>
          diff v{event.version - 1} → v{event.version}
        </Link>
      )}
      {detail.amendmentId !== undefined && detail.amendmentId !== null && (
        <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${detail.amendmentId}`}>
          amendment #{detail.amendmentId}
        </Link>
      )}
      {detail.evaluationId !== undefined && detail.evaluationId !== null && (
        <Link className="text-indigo-700 hover:underline" href={`/t/${slug}/history/evaluations/${detail.evaluationId}`}>
          evaluation #{detail.evaluationId}
        </Link>
      )}
      <span className="ml-auto text-xs text-slate-500">by {event.actor}</span>
    </li>
  );
}
