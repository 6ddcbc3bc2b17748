import Link from "next/link";
import type { ActionResult } from "@/lib/actions/result";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { ApprovalForms, ReasonForm } from "@/components/history/approval-forms";
import { OutdatedMark } from "@/components/history/amendment-state";
import { ReproposeButton } from "@/components/history/repropose-button";
import { twoDecimals } from "@/lib/format";

type ReasonAction = (amendmentId: number, previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** What the person looking at the queue may do, and the actions that do it. */
export interface QueueActions {
  isLead: boolean;
  /** Whether this person may re-propose (an editor or a lead). */
  canPropose: boolean;
  hasModel: boolean;
  approve: (amendmentId: number) => Promise<ActionResult>;
  reject: ReasonAction;
  repropose: (amendmentId: number, regenerate: boolean) => Promise<ActionResult>;
}

/**
 * A lead's queue (docs/learned-skills.md#governed-promotion): amendments judged improved that wait for approval because the team's
 * auto-promotion is off. Each opens its evaluation; a lead approves or rejects it right here. One
 * the skill has moved past since is out of date: not counted, and offered for re-proposal instead.
 */
export function ApprovalQueue({
  slug,
  entries,
  total,
  outdated,
  actions,
}: {
  slug: string;
  entries: AmendmentEntry[];
  /** How many can be approved: the count the navigation shows. */
  total: number;
  /** How many wait but are out of date. */
  outdated: number;
  actions: QueueActions;
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
      <p className="mb-3 mt-1 text-sm text-amber-950">
        {total > 0
          ? `Judged improved; auto-promotion is off, so nothing goes live until a lead approves. ${actions.isLead ? "Approve or reject each here, or open its evaluation first." : "Ask a lead of the team to decide."}`
          : "Nothing waits that a lead can approve."}
        {outdated > 0 && ` ${outdatedWords(outdated)}`}
      </p>
      <ul className="space-y-3">
        {entries.map((entry) => (
          <QueueEntry key={entry.id} slug={slug} entry={entry} actions={actions} />
        ))}
      </ul>
      {total + outdated > entries.length && (
        <p className="mt-2 text-sm text-amber-950">
          {total + outdated - entries.length} more:{" "}
          <Link className="underline" href={`/t/${slug}/history#awaiting-approval`}>
            see them all in the history
          </Link>
          .
        </p>
      )}
    </section>
  );
}

/** What the queue says of those out of date: not counted, and what to do with them. */
function outdatedWords(outdated: number): string {
  return outdated === 1
    ? "1 judged improved is out of date, not counted: its skill has moved on since, so re-propose it against the current version (or reject it)."
    : `${outdated} judged improved are out of date, not counted: their skills have moved on since, so re-propose them against the current versions (or reject them).`;
}

function QueueEntry({ slug, entry, actions }: { slug: string; entry: AmendmentEntry; actions: QueueActions }) {
  return (
    <li className="rounded-md border border-amber-200 bg-white p-3 text-sm" data-amendment={entry.id}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <Link className="font-mono text-indigo-700 hover:underline" href={`/t/${slug}/skills/${entry.skill}`}>
          {entry.skill}
        </Link>
        <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${entry.id}`}>
          amendment #{entry.id}
        </Link>
        <span className="text-slate-700">
          against v{entry.base} · delta {twoDecimals(entry.delta, { signed: true })} · by {entry.author}
        </span>
        {entry.evaluation && (
          <Link className="text-indigo-700 underline" href={`/t/${slug}/history/evaluations/${entry.evaluation.id}`}>
            review its evaluation
          </Link>
        )}
      </div>
      {entry.outdated && entry.current !== null && (
        <div className="mt-1 text-sm">
          <OutdatedMark base={entry.base} current={entry.current} />
        </div>
      )}
      <p className="mt-1 text-slate-600">“{entry.rationale}”</p>
      {entry.outdated && entry.current !== null ? (
        <OutdatedEntry entry={entry} current={entry.current} actions={actions} />
      ) : (
        actions.isLead && (
          <details className="mt-2">
            <summary className="cursor-pointer text-sm font-medium text-amber-900">Approve or reject #{entry.id}</summary>
            <div className="mt-2 max-w-md">
              <ApprovalForms
                amendmentId={entry.id}
                approve={actions.approve.bind(null, entry.id)}
                reject={actions.reject.bind(null, entry.id)}
              />
            </div>
          </details>
        )
      )}
    </li>
  );
}

/** An out-of-date amendment in the queue: re-proposed against the current version, or rejected by a lead. */
function OutdatedEntry({ entry, current, actions }: { entry: AmendmentEntry; current: number; actions: QueueActions }) {
  return (
    <div className="mt-2 max-w-md space-y-2">
      {actions.canPropose && (
        <ReproposeButton
          amendmentId={entry.id}
          current={current}
          hasModel={actions.hasModel}
          repropose={actions.repropose.bind(null, entry.id)}
        />
      )}
      {actions.isLead && (
        <details>
          <summary className="cursor-pointer text-sm font-medium text-amber-900">Reject #{entry.id}</summary>
          <div className="mt-2">
            <ReasonForm
              name={`Reject amendment #${entry.id}`}
              label="Reject it, saying why"
              button="Reject"
              action={actions.reject.bind(null, entry.id)}
            />
          </div>
        </details>
      )}
    </div>
  );
}
