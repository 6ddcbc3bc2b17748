import { ActionMessageSlot } from "@/components/action-message";
import { ApprovalQueue } from "@/components/history/approval-queue";
import { CARD } from "@/components/ui/card";
import type { AmendmentEntry } from "@/lib/evolution/amendments";
import { roleAtLeast, type Role } from "@/lib/auth/scopes";
import { approveAmendmentAction, rejectAmendmentAction, reproposeAmendmentAction } from "./amendment-actions";

/**
 * The team's queue of amendments awaiting a lead's approval, as the overview and the history show
 * it: whenever something waits (out of date or not), or auto-promotion is off (so an empty queue
 * says so, in a plain card: amber is for what needs a lead, and nothing does).
 */
export function TeamApprovalQueue({
  slug,
  awaiting,
  autoPromote,
  role,
  hasModel,
}: {
  slug: string;
  awaiting: { total: number; outdated: number; entries: AmendmentEntry[] };
  autoPromote: boolean;
  role: Role;
  hasModel: boolean;
}) {
  // The slot stays when the queue goes (the last amendment decided): it says what the lead did.
  return (
    <ActionMessageSlot>
      {awaiting.total === 0 && awaiting.outdated === 0 ? (
        !autoPromote && <NothingWaits />
      ) : (
        <ApprovalQueue
          slug={slug}
          entries={awaiting.entries}
          total={awaiting.total}
          outdated={awaiting.outdated}
          actions={{
            isLead: roleAtLeast(role, "lead"),
            canPropose: roleAtLeast(role, "editor"),
            hasModel,
            approve: approveAmendmentAction.bind(null, slug),
            reject: rejectAmendmentAction.bind(null, slug),
            repropose: reproposeAmendmentAction.bind(null, slug),
          }}
        />
      )}
    </ActionMessageSlot>
  );
}

/** An empty queue, found where a full one is (its test id, its heading's id), so a link to it still lands. */
function NothingWaits() {
  return (
    <section className={`${CARD} p-4`} data-testid="approval-queue" aria-labelledby="awaiting-approval">
      <h2 id="awaiting-approval" className="font-semibold">
        Awaiting approval (0)
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Nothing waits for a lead: auto-promotion is off, and every improved amendment has been decided.
      </p>
    </section>
  );
}
