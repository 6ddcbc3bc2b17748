"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { useActionMessageSlot } from "@/components/action-message";
import { buttonClass, type ButtonTone } from "@/components/ui/submit-button";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * A button that asks before it acts: revoke, remove, approve, promote, pin. It may be gone once it
 * has worked (its row changed), so what happened, done or refused, is said in the section's slot.
 * A plain button, not a form of its own: it sits in tables that are inside forms (the versions' compare).
 */
export function ActionButton({
  label,
  confirm,
  action,
  tone = "plain",
  size = "sm",
  name,
}: {
  label: string;
  /** The name screen readers say, where rows repeat one label ("Mute Bash" beside "Mute Read"); it starts with the label. */
  name?: string;
  confirm: string;
  action: () => Promise<ActionResult>;
  tone?: ButtonTone;
  size?: "sm" | "xs";
}) {
  const router = useRouter();
  const say = useActionMessageSlot();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      disabled={pending || !hydrated}
      aria-label={name}
      className={buttonClass(tone, size)}
      onClick={() => {
        if (!window.confirm(confirm)) return;
        startTransition(async () => {
          const outcome = await action();
          // Said in the transition that brings the action's refreshed page: the notice and the rows it speaks of change together.
          startTransition(() => say(outcome));
          if (outcome.ok && outcome.href) router.push(outcome.href);
        });
      }}
    >
      {label}
    </button>
  );
}
