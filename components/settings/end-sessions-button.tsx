"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "@/components/action-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * A lead ends every dashboard session of a member: they are signed out everywhere at their next
 * request. It stays on the row when there is none left, so its message is said beside it. A button
 * with nothing typed to keep: a plain form action, not a kept form. It asks first, and the asking is
 * script: sent before hydration, the form would end the sessions without asking, so its button
 * waits for hydration (docs/decisions/dashboard-actions.md).
 */
export function EndSessionsButton({ action, email, active }: { action: () => Promise<ActionResult>; email: string; active: number }) {
  const [state, formAction] = useActionState(action, null);
  const hydrated = useHydrated();
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (!window.confirm(`Sign ${email} out of every browser now?`)) event.preventDefault();
      }}
      className="inline-flex items-center gap-2"
    >
      <SubmitButton tone="danger" size="xs" disabled={active === 0 || !hydrated}>
        End sessions
      </SubmitButton>
      <ActionMessage state={state} />
    </form>
  );
}
