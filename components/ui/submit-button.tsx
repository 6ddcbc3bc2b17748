"use client";

import type { ReactNode } from "react";
import { useFormStatus } from "react-dom";
import { useHydrated } from "@/components/ui/use-hydrated";

const TONES = {
  primary: "border-indigo-700 bg-indigo-700 font-medium text-white hover:bg-indigo-600",
  approve: "border-emerald-700 bg-emerald-700 font-medium text-white hover:bg-emerald-600",
  plain: "border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
  danger: "border-red-300 bg-white text-red-700 hover:bg-red-50",
} as const;

const SIZES = { sm: "px-3 py-1.5 text-sm", xs: "px-2 py-0.5 text-xs", wide: "w-full px-4 py-2" } as const;

export type ButtonTone = keyof typeof TONES;
export type ButtonSize = keyof typeof SIZES;

/** The look of an action's button, for the one that is not a form's (ActionButton). */
export function buttonClass(tone: ButtonTone, size: ButtonSize): string {
  return `rounded-md border disabled:opacity-50 ${TONES[tone]} ${SIZES[size]}`;
}

/**
 * A form's submit button, disabled while its action runs. The form's own status says so
 * (useFormStatus); a form submitted by hand (useKeptForm) passes `pending` instead, and its button
 * waits for hydration: such a form has no action of its own, and sent before the script runs the
 * browser would GET the page with every field in the address, a password too. With its button
 * disabled, Enter in a field sends nothing either. `disabled` is for a button with nothing to do
 * (no session left to end).
 */
export function SubmitButton({
  children,
  tone = "primary",
  size = "sm",
  pending,
  disabled = false,
}: {
  children: ReactNode;
  tone?: ButtonTone;
  size?: ButtonSize;
  pending?: boolean;
  disabled?: boolean;
}) {
  const status = useFormStatus();
  const hydrated = useHydrated();
  const byHand = pending !== undefined;
  return (
    <button type="submit" disabled={disabled || (byHand && !hydrated) || (pending ?? status.pending)} className={buttonClass(tone, size)}>
      {children}
    </button>
  );
}
