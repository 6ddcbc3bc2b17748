"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionButton } from "@/components/action-button";
import { ActionMessage, useActionMessageSlot } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

/**
 * A lead's approve and reject (with a reason) of an amendment awaiting approval (docs/learned-skills.md#governed-promotion). The forms go
 * once the amendment has moved on, so what was done is said at the top of the section.
 */
export function ApprovalForms({
  amendmentId,
  approve,
  reject,
}: {
  amendmentId: number;
  approve: () => Promise<ActionResult>;
  reject: FormAction;
}) {
  return (
    <div className="space-y-3">
      <ActionButton
        label="Approve and put live"
        tone="approve"
        confirm={`Approve amendment #${amendmentId}? It becomes the skill's next version, live for every agent.`}
        action={approve}
      />
      <ReasonForm name={`Reject amendment #${amendmentId}`} label="Or reject it, saying why" button="Reject" action={reject} />
    </div>
  );
}

/**
 * An action that needs a written reason (reject, override): the reason stays in the box when it is
 * refused, said beside it; a success takes the form away, so it is said at the top of the section.
 */
export function ReasonForm({ name, label, button, action }: { name: string; label: string; button: string; action: FormAction }) {
  const say = useActionMessageSlot();
  const [reason, setReason] = useState("");
  const [, startTransition] = useTransition();
  // Said in the transition that brings the refreshed page: the notice and the list without the decided amendment change together.
  const { state, pending, onSubmit } = useKeptForm(action, (done) =>
    startTransition(() => {
      setReason("");
      say(done);
    }),
  );
  return (
    <form onSubmit={onSubmit} className="space-y-2" aria-label={name}>
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
      <SubmitButton tone="danger" pending={pending}>
        {button}
      </SubmitButton>
      {state && !state.ok && <ActionMessage state={state} />}
    </form>
  );
}
