"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { MIN_PASSWORD } from "@/lib/auth/new-password";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useKeptForm, type FormAction } from "@/components/ui/use-kept-form";

const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2";

/** Accept as the person already signed in. */
export function AcceptSignedInForm({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="space-y-3">
      <ActionMessage state={state} />
      <SubmitButton size="wide">Accept as {email}</SubmitButton>
    </form>
  );
}

/**
 * Accept with the account's password, or set one for a new account; the email is the invitation's.
 * A refused password stays in its fields, to be fixed as the message says rather than typed again.
 */
export function AcceptWithPasswordForm({ action, email, newAccount }: { action: FormAction; email: string; newAccount: boolean }) {
  const { state, pending, onSubmit } = useKeptForm(action);
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label={newAccount ? "Set a password and join" : "Sign in and join"}>
      <ActionMessage state={state} />
      <label className="block text-sm font-medium">
        Email
        <input name="email" type="email" value={email} readOnly autoComplete="username" className={`${input} bg-slate-50`} />
      </label>
      <label className="block text-sm font-medium">
        {newAccount ? `Choose a password (${MIN_PASSWORD} characters or more)` : "Password"}
        <input name="password" type="password" required autoComplete={newAccount ? "new-password" : "current-password"} className={input} />
      </label>
      {newAccount && (
        <label className="block text-sm font-medium">
          The same password again
          <input name="confirm" type="password" required autoComplete="new-password" className={input} />
        </label>
      )}
      <SubmitButton size="wide" pending={pending}>
        {newAccount ? "Set password and join" : "Sign in and join"}
      </SubmitButton>
    </form>
  );
}
