import type { ReactNode } from "react";
import Link from "next/link";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { When } from "@/components/ui/when";

type StateOf = Pick<
  AmendmentEntry,
  | "id"
  | "status"
  | "verdict"
  | "decision"
  | "decidedBy"
  | "decidedAt"
  | "reason"
  | "rejection"
  | "outdated"
  | "base"
  | "current"
  | "reproposedFrom"
  | "supersededBy"
>;

/** What state an amendment is in, in words, with the decisions that put it there (docs/evaluation-and-activation.md#amendment-states): the same sentence wherever it is listed. */
function amendmentStateText(slug: string, entry: StateOf): ReactNode {
  switch (entry.status) {
    case "pending":
      return "pending: not evaluated yet";
    case "evaluating":
      return "evaluating…";
    case "evaluated":
      return `evaluated: ${entry.verdict ?? "no verdict"}, not promoted`;
    case "awaiting-approval":
      return entry.outdated
        ? "judged improved, but it can no longer be approved"
        : "awaiting a lead's approval: judged improved, nothing is live until a lead approves";
    case "rejected":
      return entry.rejection ? (
        <>
          rejected by {entry.rejection.by} <When at={entry.rejection.at} />: “{entry.rejection.reason}”
        </>
      ) : (
        "rejected"
      );
    case "promoted":
      if (entry.decision === "overridden")
        return `promoted by a manual override of ${entry.decidedBy ?? "a lead"}: “${entry.reason ?? ""}”`;
      if (entry.decision === "approved") return `promoted: approved by ${entry.decidedBy ?? "a lead"}`;
      return "promoted automatically: judged improved";
    case "superseded":
      return entry.supersededBy === null ? (
        "superseded: re-proposed against a newer version"
      ) : (
        <>
          superseded: re-proposed against a newer version as <AmendmentLink slug={slug} id={entry.supersededBy} />
        </>
      );
  }
}

function AmendmentLink({ slug, id }: { slug: string; id: number }) {
  return (
    <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${id}`}>
      amendment #{id}
    </Link>
  );
}

/** The state; whether it is out of date; where it was re-proposed from; and — once it was overridden or re-proposed — the rejection it keeps. */
export function AmendmentStateLine({ slug, entry }: { slug: string; entry: StateOf }) {
  const tone =
    entry.status === "rejected"
      ? "text-red-800"
      : entry.status === "awaiting-approval"
        ? "text-amber-900"
        : entry.status === "promoted"
          ? "text-emerald-800"
          : "text-slate-700";
  return (
    <span className="space-y-0.5">
      {entry.outdated && entry.current !== null && <OutdatedMark base={entry.base} current={entry.current} />}
      <span className={`block ${tone}`} data-state={entry.status}>
        {amendmentStateText(slug, entry)}
      </span>
      {entry.reproposedFrom !== null && (
        <span className="block text-xs text-slate-600" data-testid="reproposed-from">
          re-proposed from <AmendmentLink slug={slug} id={entry.reproposedFrom} />
        </span>
      )}
      {entry.rejection && entry.status !== "rejected" && (
        <span className="block text-xs text-red-800" data-testid="rejection">
          rejected earlier by {entry.rejection.by} <When at={entry.rejection.at} />: “{entry.rejection.reason}”
        </span>
      )}
    </span>
  );
}

/** "Out of date — written against v4, the skill is at v5": the same words wherever an amendment is listed. */
export function OutdatedMark({ base, current }: { base: number; current: number }) {
  return (
    <span className="block font-medium text-orange-800" data-testid="outdated">
      Out of date — written against v{base}, the skill is at v{current}
    </span>
  );
}
