"use client";

import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { useNotice } from "@/components/action-notice";

type ReasonAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * A lead's approve and reject (with a reason) of an amendment awaiting approval (§10). What they
 * did is said in the page's notice: the forms go once the amendment has moved on.
 */
export function ApprovalForms({
  amendmentId,
  approve,
  reject,
}: {
  amendmentId: number;
  approve: () => Promise<ActionResult>;
  reject: ReasonAction;
}) {
  const router = useRouter();
  const notify = useNotice();
  const [pending, startTransition] = useTransition();
  const [refusal, setRefusal] = useState<ActionResult | null>(null);
  return (
    <div className="space-y-3">
      <div>
        <button
          disabled={pending}
          onClick={() => {
            if (!window.confirm(`Approve amendment #${amendmentId}? It becomes the skill's next version, live for every agent.`)) return;
            startTransition(async () => {
              const outcome = await approve();
              setRefusal(outcome.ok ? null : outcome);
              if (!outcome.ok) return;
              notify(outcome.message);
              router.refresh();
            });
          }}
          className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-600 disabled:opacity-50"
        >
          Approve and put live
        </button>
        <ActionMessage state={refusal} />
      </div>
      <ReasonForm name={`Reject amendment #${amendmentId}`} label="Or reject it, saying why" button="Reject" action={reject} />
    </div>
  );
}

/** An action that needs a written reason (reject, override); the reason stays in the box when it is refused, and a success is said in the notice. */
export function ReasonForm({ name, label, button, action }: { name: string; label: string; button: string; action: ReasonAction }) {
  const notify = useNotice();
  // Said before the page refreshes: the refresh can take this very form away with the state it was in.
  const [state, formAction, pending] = useActionState(async (previous: ActionResult | null, form: FormData) => {
    const outcome = await action(previous, form);
    if (outcome.ok) notify(outcome.message);
    return outcome;
  }, null);
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
      {state && !state.ok && <ActionMessage state={state} />}
    </form>
  );
}
