"use client";

import type { InputHTMLAttributes, ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton, type ButtonSize, type ButtonTone } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

/** The box of a form's text, number and select fields. */
export const FIELD_BOX = "mt-1 block rounded-md border border-slate-300 px-2 py-1";

/**
 * The one shape of a form whose action answers in place (the settings, a prompt set from
 * telemetry): its fields, the submit button, what the action answered, and what a success shows.
 * What was typed and chosen stays when the action is refused (useKeptForm); `onDone` clears what a
 * success should clear.
 */
export function KeptForm({
  label,
  action,
  onDone,
  submit,
  tone,
  size,
  inline = false,
  row,
  shown,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  action: FormAction;
  onDone?: (result: ActionResult) => void;
  /** What the submit button says. */
  submit: ReactNode;
  tone?: ButtonTone;
  size?: ButtonSize;
  /** In a table's cell: the fields, the button and the message on one line. */
  inline?: boolean;
  /** Fields that share a row with the submit button, under `children`. */
  row?: ReactNode;
  /** What a success shows under the message (a secret shown once). */
  shown?: (result: ActionResult & { ok: true }) => ReactNode;
  children?: ReactNode;
}) {
  const { state, pending, onSubmit } = useKeptForm(action, onDone);
  const button = (
    <SubmitButton tone={tone} size={size} pending={pending}>
      {submit}
    </SubmitButton>
  );
  if (inline) {
    return (
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" aria-label={label}>
        {children}
        {button}
        <ActionMessage state={state} />
      </form>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={label}>
      {children}
      {row === undefined ? (
        button
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          {row}
          {button}
        </div>
      )}
      <ActionMessage state={state} />
      {state?.ok && shown?.(state)}
    </form>
  );
}

/** A labelled input of a kept form, its value the form's state; `width` is its Tailwind width. */
export function Field({ label, width, ...input }: { label: string; width: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="text-sm font-medium">
      {label}
      <input {...input} className={`${FIELD_BOX} ${width}`} />
    </label>
  );
}
