import { ActionMessageSlot } from "@/components/action-message";
import { ApprovalQueue } from "@/components/history/approval-queue";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { approveAmendmentAction, rejectAmendmentAction } from "./amendment-actions";

/**
 * The team's queue of amendments awaiting a lead's approval, as the overview and the history show
 * it: whenever something waits, or auto-promotion is off (so an empty queue says so).
 */
export function TeamApprovalQueue({
  slug,
  awaiting,
  autoPromote,
  isLead,
}: {
  slug: string;
  awaiting: { total: number; entries: AmendmentEntry[] };
  autoPromote: boolean;
  isLead: boolean;
}) {
  // The slot stays when the queue goes (the last amendment decided): it says what the lead did.
  return (
    <ActionMessageSlot>
      {(awaiting.total > 0 || !autoPromote) && (
        <ApprovalQueue
          slug={slug}
          entries={awaiting.entries}
          total={awaiting.total}
          isLead={isLead}
          approve={approveAmendmentAction.bind(null, slug)}
          reject={rejectAmendmentAction.bind(null, slug)}
        />
      )}
    </ActionMessageSlot>
  );
}
