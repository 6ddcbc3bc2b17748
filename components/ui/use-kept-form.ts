"use client";

import { useActionState, useTransition, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/result";

export type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * A form that keeps what was typed and chosen when its action is refused. React resets a form
 * given an `action` once the action ends, and a reset puts selects, radios, checkboxes and
 * passwords back to their defaults whatever the form's state holds; so the form is submitted by
 * hand, and its fields are the component's state. `onDone` clears what a success should clear.
 */
export function useKeptForm(action: FormAction, onDone?: (result: ActionResult) => void) {
  const [state, formAction, pending] = useActionState(async (previous: ActionResult | null, form: FormData) => {
    const result = await action(previous, form);
    if (result.ok) onDone?.(result);
    return result;
  }, null);
  const [, startTransition] = useTransition();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => formAction(form));
  };
  return { state, pending, onSubmit };
}
