"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";

function Refusal({ state }: { state: ActionResult | null }) {
  if (!state || state.ok) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {state.message}
    </p>
  );
}

const button = "w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50";
const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2";

/** Accept as the person already signed in. */
export function AcceptSignedInForm({ action, email }: { action: () => Promise<ActionResult>; email: string }) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="space-y-3">
      <Refusal state={state} />
      <button disabled={pending} className={button}>
        Accept as {email}
      </button>
    </form>
  );
}

/** Accept with the account's password, or set one for a new account; the email is the invitation's. */
export function AcceptWithPasswordForm({
  action,
  email,
  newAccount,
}: {
  action: (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
  email: string;
  newAccount: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="space-y-4" aria-label={newAccount ? "Set a password and join" : "Sign in and join"}>
      <Refusal state={state} />
      <label className="block text-sm font-medium">
        Email
        <input name="email" type="email" value={email} readOnly autoComplete="username" className={`${input} bg-slate-50`} />
      </label>
      <label className="block text-sm font-medium">
        {newAccount ? "Choose a password (12 characters or more)" : "Password"}
        <input name="password" type="password" required autoComplete={newAccount ? "new-password" : "current-password"} className={input} />
      </label>
      {newAccount && (
        <label className="block text-sm font-medium">
          The same password again
          <input name="confirm" type="password" required autoComplete="new-password" className={input} />
        </label>
      )}
      <button disabled={pending} className={button}>
        {newAccount ? "Set password and join" : "Sign in and join"}
      </button>
    </form>
  );
}
