"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";

/** A lead's approve and reject (with a reason) of an amendment awaiting approval (§10). */
export function ApprovalForms({
  approve,
  reject,
}: {
  approve: () => Promise<ActionResult>;
  reject: (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
}) {
  const [approved, approveAction, approving] = useActionState(approve, null);
  const [rejected, rejectAction, rejecting] = useActionState(reject, null);
  const [reason, setReason] = useState("");
  return (
    <div className="space-y-4">
      <form action={approveAction} aria-label="Approve">
        <button
          disabled={approving}
          className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-600 disabled:opacity-50"
        >
          Approve and put live
        </button>
        <ActionMessage state={approved} />
      </form>
      <form action={rejectAction} className="space-y-2" aria-label="Reject">
        <label className="block text-sm font-medium">
          Or reject it, saying why
          <textarea
            name="reason"
            required
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={2}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <button
          disabled={rejecting}
          className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
        >
          Reject
        </button>
        <ActionMessage state={rejected} />
      </form>
    </div>
  );
}
