"use client";

import { useActionState, useState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";

type ReasonAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** A lead's approve and reject (with a reason) of an amendment awaiting approval (§10). */
export function ApprovalForms({ approve, reject }: { approve: () => Promise<ActionResult>; reject: ReasonAction }) {
  const [approved, approveAction, approving] = useActionState(approve, null);
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
      <ReasonForm name="Reject" label="Or reject it, saying why" button="Reject" action={reject} />
    </div>
  );
}

/** An action that needs a written reason (reject, override); the reason stays in the box when it is refused. */
export function ReasonForm({ name, label, button, action }: { name: string; label: string; button: string; action: ReasonAction }) {
  const [state, formAction, pending] = useActionState(action, null);
  const [reason, setReason] = useState("");
  return (
    <form action={formAction} className="space-y-2" aria-label={name}>
      <label className="block text-sm font-medium">
        {label}
        <textarea
          name="reason"
          required
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={2}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1"
        />
      </label>
      <button
        disabled={pending}
        className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
      >
        {button}
      </button>
      <ActionMessage state={state} />
    </form>
  );
}
