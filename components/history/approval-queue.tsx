import Link from "next/link";
import type { ActionResult } from "@/lib/actions/result";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { ApprovalForms } from "@/components/history/approval-forms";

type ReasonAction = (amendmentId: number, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * A lead's queue (§8.4): amendments judged improved that wait for approval because the team's
 * auto-promotion is off. Each opens its evaluation; a lead approves or rejects it right here.
 */
export function ApprovalQueue({
  slug,
  entries,
  total,
  isLead,
  approve,
  reject,
}: {
  slug: string;
  entries: AmendmentEntry[];
  total: number;
  isLead: boolean;
  approve: (amendmentId: number) => Promise<ActionResult>;
  reject: ReasonAction;
}) {
  return (
    <section
      className="rounded-lg border border-amber-300 bg-amber-50 p-4"
      aria-labelledby="awaiting-approval"
      data-testid="approval-queue"
    >
      <h2 id="awaiting-approval" className="font-semibold text-amber-950">
        Awaiting approval ({total})
      </h2>
      {total === 0 ? (
        <p className="mt-1 text-sm text-amber-950">
          Nothing waits for a lead: auto-promotion is off, and every improved amendment has been decided.
        </p>
      ) : (
        <>
          <p className="mb-3 mt-1 text-sm text-amber-950">
            Judged improved; auto-promotion is off, so nothing goes live until a lead approves.{" "}
            {isLead ? "Approve or reject each here, or open its evaluation first." : "Ask a lead of the team to decide."}
          </p>
          <ul className="space-y-3">
            {entries.map((entry) => (
              <li key={entry.id} className="rounded-md border border-amber-200 bg-white p-3 text-sm" data-amendment={entry.id}>
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${entry.skill}`}>
                    {entry.skill}
                  </Link>
                  <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${entry.id}`}>
                    amendment #{entry.id}
                  </Link>
                  <span className="text-slate-700">
                    against v{entry.baseVersion} · delta{" "}
                    {entry.delta === null ? "—" : `${entry.delta >= 0 ? "+" : ""}${entry.delta.toFixed(3)}`} · by {entry.author}
                  </span>
                  {entry.evaluation && (
                    <Link className="text-indigo-700 underline" href={`/t/${slug}/history/evaluations/${entry.evaluation.id}`}>
                      review evaluation #{entry.evaluation.id}
                    </Link>
                  )}
                </div>
                <p className="mt-1 text-slate-600">“{entry.rationale}”</p>
                {isLead && (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-sm font-medium text-amber-900">Approve or reject #{entry.id}</summary>
                    <div className="mt-2 max-w-md">
                      <ApprovalForms amendmentId={entry.id} approve={approve.bind(null, entry.id)} reject={reject.bind(null, entry.id)} />
                    </div>
                  </details>
                )}
              </li>
            ))}
          </ul>
          {total > entries.length && (
            <p className="mt-2 text-sm text-amber-950">
              {total - entries.length} more:{" "}
              <Link className="underline" href={`/t/${slug}/history#awaiting-approval`}>
                see them all in the history
              </Link>
              .
            </p>
          )}
        </>
      )}
    </section>
  );
}
