"use client";

import { useActionState, useState } from "react";

/** Email and password; a refused sign-in says why and keeps the email that was typed. */
export function SignInForm({
  callbackUrl,
  action,
}: {
  callbackUrl: string;
  action: (previous: string | null, form: FormData) => Promise<string | null>;
}) {
  const [refusal, formAction, pending] = useActionState(action, null);
  const [email, setEmail] = useState("");
  return (
    <form action={formAction} className="space-y-4">
      {refusal && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      )}
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
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
      >
        Sign in
      </button>
    </form>
  );
}
