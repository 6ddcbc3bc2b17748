import type { ReactNode } from "react";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { When } from "@/components/ui/when";

type StateOf = Pick<AmendmentEntry, "status" | "verdict" | "decision" | "decidedBy" | "decidedAt" | "reason" | "rejection">;

/** What state an amendment is in, in words, with the decisions that put it there (§8.4): the same sentence wherever it is listed. */
function amendmentStateText(entry: StateOf): ReactNode {
  switch (entry.status) {
    case "pending":
      return "pending: not evaluated yet";
    case "evaluating":
      return "evaluating…";
    case "evaluated":
      return `evaluated: ${entry.verdict ?? "no verdict"}, not promoted`;
    case "awaiting-approval":
      return "awaiting a lead's approval: judged improved, nothing is live until a lead approves";
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
  }
}

/** The state, and — once it was overridden — the rejection it keeps. */
export function AmendmentStateLine({ entry }: { entry: StateOf }) {
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
      <span className={`block ${tone}`} data-state={entry.status}>
        {amendmentStateText(entry)}
      </span>
      {entry.rejection && entry.status !== "rejected" && (
        <span className="block text-xs text-red-800" data-testid="rejection">
          rejected earlier by {entry.rejection.by} <When at={entry.rejection.at} />: “{entry.rejection.reason}”
        </span>
      )}
    </span>
  );
}
