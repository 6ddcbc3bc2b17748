"use client";

import { useEffect, useId, useRef, useState, useTransition } from "react";
import { createPortal } from "react-dom";
import { useRouter } from "next/navigation";
import type { ActionResult, Decision } from "@/lib/actions/result";
import { ActionMessage, useActionMessageSlot } from "@/components/action-message";
import { buttonClass, type ButtonTone } from "@/components/ui/submit-button";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * A lead's decision that changes what agents get — pin, unpin, a label, a rollback (docs/learned-skills.md#one-served-version) — asked
 * in a dialog instead of the browser's confirm: it says what will happen, takes the reason (required
 * when the team's settings ask for one) and, where there is one, the choice the decision offers
 * (keep the pin). Done is said in the section's slot (the row that offered it may be gone); a
 * refusal stays in the dialog, beside what the lead wrote.
 */
export interface DecisionSpec {
  /** What will happen, as a question: "Pin v2 for agents?". */
  question: string;
  /** The button that decides: "Pin v2". */
  confirm: string;
  /** The team asks for a reason with every such decision (`requireReasons`). */
  reasonRequired: boolean;
  /** A choice beside the decision, off unless ticked: its label. */
  option?: string;
}

export function DecisionButton({
  label,
  spec,
  action,
  tone = "plain",
}: {
  label: string;
  spec: DecisionSpec;
  action: (decision: Decision) => Promise<ActionResult>;
  tone?: ButtonTone;
}) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  return (
    <>
      <button type="button" disabled={!hydrated} className={buttonClass(tone, "sm")} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && <DecisionDialog spec={spec} action={action} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The dialog itself, for a control of its own (the label box). Rendered into the body: the
 * versions table sits inside the comparison's GET form, and a form may not hold another.
 */
export function DecisionDialog({
  spec,
  action,
  onClose,
}: {
  spec: DecisionSpec;
  action: (decision: Decision) => Promise<ActionResult>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [reason, setReason] = useState("");
  const [option, setOption] = useState(false);
  const { refusal, pending, decide } = useDecide(action, onClose);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return createPortal(
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <form
        className="space-y-3 p-4"
        onSubmit={(event) => {
          event.preventDefault();
          // React bubbles a portal's events through the tree it was opened from: a form there (the
          // versions table's comparison, a next/form) would take this submit for its own.
          event.stopPropagation();
          decide({ reason: reason.trim(), option });
        }}
      >
        <p id={titleId} className="text-sm font-medium text-slate-900">
          {spec.question}
        </p>
        {spec.option && (
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-1" checked={option} onChange={(event) => setOption(event.target.checked)} />
            <span>{spec.option}</span>
          </label>
        )}
        <label className="block text-sm font-medium">
          {spec.reasonRequired ? "Reason (the team asks for one)" : "Reason (optional)"}
          <textarea
            name="reason"
            required={spec.reasonRequired}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={2}
            maxLength={2000}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1 font-normal"
          />
        </label>
        <ActionMessage state={refusal} />
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass("plain", "sm")} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={pending} className={buttonClass("primary", "sm")}>
            {spec.confirm}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}

/** Runs the decision: done is said in the section's slot and closes the dialog; a refusal is kept for the dialog to show. */
function useDecide(action: (decision: Decision) => Promise<ActionResult>, onClose: () => void) {
  const router = useRouter();
  const say = useActionMessageSlot();
  const [refusal, setRefusal] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();
  const decide = (decision: Decision) =>
    startTransition(async () => {
      const outcome = await action(decision);
      if (!outcome.ok) {
        setRefusal(outcome);
        return;
      }
      // In the transition that brings the refreshed page: the notice and the rows it speaks of change together.
      startTransition(() => {
        say(outcome);
        onClose();
      });
      if (outcome.href) router.push(outcome.href);
    });
  return { refusal, pending, decide };
}
