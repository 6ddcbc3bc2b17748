"use client";

import { useActionState, useState } from "react";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";

/** Email and password; a refused sign-in says why and keeps the email that was typed. */
export function SignInForm({
  callbackUrl,
  action,
}: {
  callbackUrl: string;
  action: (previous: string | null, form: FormData) => Promise<string | null>;
}) {
  const [refusal, formAction] = useActionState(action, null);
  const [email, setEmail] = useState("");
  return (
    <form action={formAction} className="space-y-4">
      <ActionMessage state={refusal === null ? null : { ok: false, message: refusal }} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <label className="block text-sm font-medium">
        Email
        <input
          name="email"
          type="email"
          required
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className="block text-sm font-medium">
        Password
        <input
          name="password"
          type="password"
          required
          autoComplete="current-password"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <SubmitButton size="wide">Sign in</SubmitButton>
    </form>
  );
}
