"use client";

import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/actions/result";
import { useActionMessageSlot } from "@/components/action-message";
import { SubmitButton, type ButtonTone } from "@/components/ui/submit-button";

/**
 * A button that asks before it acts: revoke, remove, approve, promote, pin. It may be gone once it
 * has worked (its row changed), so what happened, done or refused, is said in the section's slot.
 */
export function ActionButton({
  label,
  confirm,
  action,
  tone = "plain",
  size = "sm",
}: {
  label: string;
  confirm: string;
  action: () => Promise<ActionResult>;
  tone?: ButtonTone;
  size?: "sm" | "xs";
}) {
  const router = useRouter();
  const say = useActionMessageSlot();
  return (
    <form
      className="inline"
      onSubmit={(event) => {
        if (!window.confirm(confirm)) event.preventDefault();
      }}
      action={async () => {
        const outcome = await action();
        say(outcome);
        if (outcome.ok && outcome.href) router.push(outcome.href);
      }}
    >
      <SubmitButton tone={tone} size={size}>
        {label}
      </SubmitButton>
    </form>
  );
}
